// Typed calls to the worker's REST API, validated with the shared schemas. Every failure becomes an
// ApiFailure whose message is fit to show a person.
import { CLIENT_HEADER } from '../../schema/answered-by.ts';
import type { ClientKind } from '../../schema/answered-by.ts';
import type { z } from 'zod';
import {
  analyticsFailuresSchema,
  analyticsLevelsSchema,
  analyticsModelsSchema,
  analyticsSeriesSchema,
  analyticsSlowSchema,
  analyticsSummarySchema,
} from '../../schema/analytics.ts';
import { apiErrorOf, healthSchema } from '../../schema/api.ts';
import type { Health } from '../../schema/api.ts';
import { llmCallDetailSchema, modelListSchema } from '../../schema/protocol.ts';
import type { LlmCallDetail, ModelInfo } from '../../schema/protocol.ts';
import { runListSchema, runSummarySchema } from '../../schema/run.ts';
import { handOffToken, TOKEN_KEY } from './token-handoff.ts';
import { verificationResponseSchema } from '../../schema/artifacts.ts';
import { batchListSchema, batchSchema, boardSchema } from '../../schema/board.ts';
import type { Batch, BatchList, Board, BoardQuery, CreateBatch } from '../../schema/board.ts';
import type { VerificationResponse } from '../../schema/artifacts.ts';
import type { ForecastRequest } from '../../schema/forecast-request.ts';
import { forecastSchema } from '../../schema/forecast.ts';
import { runComparisonSchema } from '../../schema/run-compare.ts';
import type { RunComparison } from '../../schema/run-compare.ts';
import type { Forecast } from '../../schema/forecast.ts';
import { forkListSchema } from '../../schema/fork.ts';
import type { ForkBody, ForkEntry } from '../../schema/fork.ts';
import type { RunAction, RunConfig, RunList, RunStatus, RunSummary } from '../../schema/run.ts';
import { accessInfoSchema, createdShareSchema, shareListSchema, tokenInfoSchema } from '../../schema/access.ts';
import type { AccessInfo, CreatedShare, CreateShareBody, ShareList, TokenInfo } from '../../schema/access.ts';

/** An API call that did not succeed: what the server said (or why there was no answer), and its status. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: string[];

  constructor(status: number, code: string, message: string, issues: string[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

/**
 * The API token (API_TOKEN set on the worker). Opening the UI once as /?token=… hands it over: the
 * page head's inline script (token-handoff.ts) keeps it in this tab's session storage and takes it
 * out of the address bar before anything renders.
 */
export function apiToken(): string | null {
  if (typeof window === 'undefined') return null;
  handOffToken();
  return window.sessionStorage.getItem(TOKEN_KEY);
}

/** The Authorization header, when the tab holds the API token. */
function authHeaders(): Record<string, string> {
  const token = apiToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function request<T>(path: string, schema: z.ZodType<T>, init: RequestInit = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(init.body ? { 'Content-Type': 'application/json' } : {}),
    ...authHeaders(),
    // An answer to a pause is recorded as given by "the web UI" (schema/answered-by.ts).
    [CLIENT_HEADER]: 'web' satisfies ClientKind,
  };
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw new ApiFailure(0, 'unreachable', 'The worker did not answer. Is `npm start` still running?');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw failureOf(response.status, body);
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiFailure(response.status, 'unexpected_answer', `The worker's answer to ${path} was not understood.`);
  return parsed.data;
}

/** GET /api/health; a 503 still carries a valid report of which component is down. */
export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  const response = await fetch('/api/health', { signal, headers: { Accept: 'application/json', ...authHeaders() } });
  const parsed = healthSchema.safeParse(await response.json());
  if (!parsed.success) throw new Error(`the health report was not understood (HTTP ${response.status})`);
  return parsed.data;
}

export function listRuns(status: RunStatus | null, signal?: AbortSignal): Promise<RunList> {
  const query = new URLSearchParams({ limit: '50', ...(status ? { status } : {}) });
  return request(`/api/runs?${query}`, runListSchema, { signal });
}

export function fetchRun(runId: string, signal?: AbortSignal): Promise<RunSummary> {
  return request(`/api/runs/${encodeURIComponent(runId)}`, runSummarySchema, { signal });
}

export async function fetchModels(signal?: AbortSignal): Promise<ModelInfo[]> {
  return (await request('/api/models', modelListSchema, { signal })).models;
}

export function createRun(config: RunConfig): Promise<RunSummary> {
  return request('/api/runs', runSummarySchema, { method: 'POST', body: JSON.stringify(config) });
}

export function sendAction(runId: string, action: RunAction): Promise<RunSummary> {
  return request(`/api/runs/${encodeURIComponent(runId)}/actions`, runSummarySchema, {
    method: 'POST',
    body: JSON.stringify(action),
  });
}

export function fetchLlmCall(runId: string, callId: string, signal?: AbortSignal): Promise<LlmCallDetail> {
  return request(
    `/api/runs/${encodeURIComponent(runId)}/llm-calls/${encodeURIComponent(callId)}`,
    llmCallDetailSchema,
    { signal },
  );
}

/** The filters of the Analytics page, as the analytics API takes them. */
export type AnalyticsFilter = Partial<Record<'from' | 'model' | 'target', string>>;

const analyticsPath = (name: string, filter: AnalyticsFilter, extra: Record<string, string> = {}) => {
  const query = new URLSearchParams({ ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v)), ...extra });
  return `/api/analytics/${name}${query.size ? `?${query}` : ''}`;
};

/** Everything the Analytics page draws, fetched together. */
export async function fetchAnalytics(filter: AnalyticsFilter, bucket: 'hour' | 'day', signal?: AbortSignal) {
  const [summary, models, levels, failures, slow, series] = await Promise.all([
    request(analyticsPath('summary', filter), analyticsSummarySchema, { signal }),
    request(analyticsPath('models', filter), analyticsModelsSchema, { signal }),
    request(analyticsPath('levels', filter), analyticsLevelsSchema, { signal }),
    request(analyticsPath('failures', filter, { limit: '25' }), analyticsFailuresSchema, { signal }),
    request(analyticsPath('slow', filter, { limit: '10' }), analyticsSlowSchema, { signal }),
    request(analyticsPath('series', filter, { bucket }), analyticsSeriesSchema, { signal }),
  ]);
  return { summary, models, levels, failures, slow, series };
}
export type AnalyticsData = Awaited<ReturnType<typeof fetchAnalytics>>;

/** A body that is not JSON (the archive, the recording), or an ApiFailure with the server's words. */
async function fetchRaw(path: string, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { signal, headers: authHeaders() });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiFailure(0, 'unreachable', 'The worker did not answer. Is `npm start` still running?');
  }
  if (response.ok) return response;
  throw failureOf(response.status, await response.json().catch(() => null));
}

/** The failure an error answer names, or a plain one for a body that is not an error answer. */
function failureOf(status: number, body: unknown): ApiFailure {
  const error = apiErrorOf(body);
  if (error) return new ApiFailure(status, error.code, error.message, error.issues);
  return new ApiFailure(status, 'http_error', `The worker answered HTTP ${status}.`);
}

/**
 * GET /api/runs/:id/artifacts, saved by the browser. A plain link cannot carry the bearer token, so
 * the zip is fetched and handed to the browser's download as a blob.
 */
export function downloadArtifacts(runId: string, includeSecrets: boolean): Promise<void> {
  return saveDownload(`/api/runs/${runId}/artifacts${includeSecrets ? '?secrets=include' : ''}`, `${runId}.zip`);
}

/** GET /api/runs/:id/report.html (the run as one offline page), saved by the browser the same way. */
export function downloadReport(runId: string, includeSecrets: boolean): Promise<void> {
  const query = includeSecrets ? '?secrets=include' : '';
  return saveDownload(`/api/runs/${runId}/report.html${query}`, `${runId}-report.html`);
}

/** Fetches `path` with the bearer token and saves the body under the name the server gives (else `fallback`). */
async function saveDownload(path: string, fallback: string): Promise<void> {
  const response = await fetchRaw(path);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** GET /api/runs/:id/terminal.cast: the run's terminal as asciicast v2 text. */
export async function fetchTerminalCast(runId: string, signal?: AbortSignal): Promise<string> {
  return (await fetchRaw(`/api/runs/${runId}/terminal.cast`, signal)).text();
}

/** POST /api/runs/:id/verify: starts a verification run and returns it. */
export function startVerification(runId: string): Promise<RunSummary> {
  return request(`/api/runs/${runId}/verify`, runSummarySchema, { method: 'POST', body: '{}' });
}

/** GET /api/runs/:id/verification */
/** POST /api/runs/:id/fork: a new run from step `seq` of this one, with the changes asked for (docs/forks.md). */
export function forkRun(runId: string, body: ForkBody): Promise<RunSummary> {
  return request(`/api/runs/${encodeURIComponent(runId)}/fork`, runSummarySchema, {
    method: 'POST',
    body: JSON.stringify(body),
  });
}

/** GET /api/runs/:id/forks: the forks made of this run, oldest first. */
export async function fetchForks(runId: string, signal?: AbortSignal): Promise<ForkEntry[]> {
  return (await request(`/api/runs/${encodeURIComponent(runId)}/forks`, forkListSchema, { signal })).forks;
}

export function fetchVerification(runId: string, signal?: AbortSignal): Promise<VerificationResponse> {
  return request(`/api/runs/${runId}/verification`, verificationResponseSchema, { signal });
}

/** GET /api/board with the filters that are set. */
export function fetchBoard(query: BoardQuery, signal?: AbortSignal): Promise<Board> {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => Boolean(e[1])));
  return request(`/api/board${params.size ? `?${params}` : ''}`, boardSchema, { signal });
}

/** GET /api/compare: two runs side by side and the first point where they differ (schema/run-compare.ts). */
export function fetchComparison(a: string, b: string, signal?: AbortSignal): Promise<RunComparison> {
  return request(`/api/compare?${new URLSearchParams({ a, b })}`, runComparisonSchema, { signal });
}

/** POST /api/forecast: what a batch of these models and levels is likely to cost and take. */
export function fetchForecast(body: ForecastRequest, signal?: AbortSignal): Promise<Forecast> {
  return request('/api/forecast', forecastSchema, { method: 'POST', body: JSON.stringify(body), signal });
}

/** POST /api/batches */
export function createBatch(body: Partial<CreateBatch> & { models: string[] }): Promise<Batch> {
  return request('/api/batches', batchSchema, { method: 'POST', body: JSON.stringify(body) });
}

export function fetchBatch(id: string, signal?: AbortSignal): Promise<Batch> {
  return request(`/api/batches/${encodeURIComponent(id)}`, batchSchema, { signal });
}

/** POST /api/batches/:id/raise: a new cost cap for the batch; its runs paused at the cap go on. */
export function raiseBatch(id: string, maxCostUsd: number): Promise<Batch> {
  return request(`/api/batches/${encodeURIComponent(id)}/raise`, batchSchema, {
    method: 'POST',
    body: JSON.stringify({ maxCostUsd }),
  });
}

export function listBatches(signal?: AbortSignal): Promise<BatchList> {
  return request('/api/batches', batchListSchema, { signal });
}

/** GET /api/access: who this tab is (its role, and for a share link its run). */
export function fetchAccess(signal?: AbortSignal): Promise<AccessInfo> {
  return request('/api/access', accessInfoSchema, { signal });
}

/** POST /api/runs/:id/shares: a read-only link to the run; its token is in this answer only. */
export function createShare(runId: string, body: CreateShareBody): Promise<CreatedShare> {
  return request(`/api/runs/${encodeURIComponent(runId)}/shares`, createdShareSchema, {
    method: 'POST',
    body: JSON.stringify(body),
  });
}

/** GET /api/runs/:id/shares: the run's links, without their tokens. */
export function listShares(runId: string, signal?: AbortSignal): Promise<ShareList> {
  return request(`/api/runs/${encodeURIComponent(runId)}/shares`, shareListSchema, { signal });
}

/** DELETE /api/runs/:id/shares/:shareId: the link stops working at once. */
export function revokeShare(runId: string, shareId: string): Promise<TokenInfo> {
  return request(`/api/runs/${encodeURIComponent(runId)}/shares/${encodeURIComponent(shareId)}`, tokenInfoSchema, {
    method: 'DELETE',
  });
}
