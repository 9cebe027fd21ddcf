// A run's record leaving the tool: GET /api/runs/:id/artifacts (one zip), GET /api/runs/:id/terminal.cast
// (the recording alone, for the browser's player), GET /api/runs/:id/report.html (the run as one offline
// page), POST /api/runs/:id/verify (a verification run that re-plays the solving commands without a
// model) and GET /api/runs/:id/verification (its reports).
import { Hono } from 'hono';
import type { Context } from 'hono';
import { artifactsQuerySchema } from '../../schema/artifacts.ts';
import { rebuildRequest } from '../../schema/request-delta.ts';
import { REPLAY_MODEL, runConfigSchema } from '../../schema/run.ts';
import type { RunSummary, Target } from '../../schema/run.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { ArchivedCall } from '../artifacts/build-archive.ts';
import { archiveFiles, zipStream } from '../artifacts/build-archive.ts';
import { playedAddress } from '../artifacts/replay-scripts.ts';
import { replayableLevels, replayPlan, solvedLevels } from '../artifacts/solved-levels.ts';
import { terminalCast } from '../artifacts/terminal-cast.ts';
import { redact, shownEvents } from '../artifacts/redact.ts';
import { reportHtml } from '../artifacts/report-html.ts';
import { REPORT_CSP } from '../artifacts/report-markup.ts';
import type { VerificationReport } from '../../schema/artifacts.ts';
import { verificationReport } from '../artifacts/verification-report.ts';
import { llmCallsOfRun } from '../db.ts';
import { readSettings } from '../env.ts';
import { readProxyHealth } from '../health.ts';
import { errorText } from '../error-text.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { launchRun } from '../run-launch.ts';
import { existingSession, sessionFor, unknownRun } from '../run-lookup.ts';
import { takeCreations } from '../creation-limit.ts';
import { readQuery } from '../validate.ts';

/** Verification runs: one attempt, enough steps for the longest solving sequence and a few candidates. */
const VERIFY_EXTRA_STEPS = 5;

type RunRecord = { run: RunSummary; events: RunEvent[]; verifications: string[] };

async function recordOf(env: Env, id: string): Promise<RunRecord> {
  const record = await (await existingSession(env, id)).fullRecord();
  if (!record) throw unknownRun(id);
  return record as RunRecord;
}

/** Whether the query asks for the secrets (`?secrets=include`); 400 for any other query. */
function secretsWanted(c: Context): boolean {
  return readQuery(c, artifactsQuerySchema).secrets === 'include';
}

/** The reports of the runs that verified this one. */
async function reportsOf(env: Env, ids: readonly string[]): Promise<VerificationReport[]> {
  const records = await Promise.all(ids.map((id) => sessionFor(env, id).fullRecord()));
  const reports = records.map((r) => (r ? verificationReport(r.run as RunSummary, r.events as RunEvent[]) : null));
  return reports.filter((report): report is VerificationReport => report !== null);
}

/** Every model call of the run with its request rebuilt; null when D1 does not answer. */
async function archivedCalls(env: Env, runId: string): Promise<ArchivedCall[] | null> {
  const rows = await llmCallsOfRun(env, runId).catch((err: unknown) => {
    console.error(`artifacts of ${runId}: D1 did not answer: ${errorText(err)}`);
    return null;
  });
  if (!rows) return null;
  const stored = new Map(rows.map((row) => [row.id, row.request]));
  return rows.map((row) => ({
    seq: row.seq,
    stage: row.stage,
    model: row.model,
    level: row.level,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    latencyMs: row.latencyMs,
    costUsd: row.costUsd,
    errorClass: row.errorClass,
    request: row.request === null ? null : rebuildRequest(row.id, (key) => stored.get(key)),
    response: row.response,
  }));
}

/** The bandit server, where a run on the real game plays. */
const BANDIT_ADDRESS = { address: 'bandit.labs.overthewire.org:2220', host: 'bandit.labs.overthewire.org' };

/**
 * Where the run played: the address its last `level_started` names (the proxy records it), else for
 * older logs the practice range's address as the proxy reports it now (null when it cannot be asked).
 */
async function targetAddress(
  env: Env,
  target: Target,
  events: RunEvent[],
): Promise<{ address: string | null; host: string }> {
  const recorded = playedAddress(events);
  if (recorded) return { address: recorded, host: recorded.replace(/:\d+$/, '') };
  if (target === 'bandit') return BANDIT_ADDRESS;
  const settings = readSettings(env);
  const read = settings.ok ? await readProxyHealth(settings.settings.proxyUrl) : null;
  const address = read?.ok ? read.health.practice.address : null;
  return { address, host: address?.split(':')[0] ?? '127.0.0.1' };
}

export const artifactRoutes = new Hono<{ Bindings: Env }>()
  .get('/:id/artifacts', async (c) => {
    const includeSecrets = secretsWanted(c);
    const { run, events, verifications } = await recordOf(c.env, c.req.param('id'));
    const [calls, verifiedBy, target] = await Promise.all([
      archivedCalls(c.env, run.id),
      reportsOf(c.env, verifications),
      targetAddress(c.env, run.config.target, events),
    ]);
    const { files, manifest } = await archiveFiles({
      run,
      events,
      calls,
      report: verificationReport(run, events),
      verifiedBy,
      target,
      includeSecrets,
    });
    return new Response(zipStream(files, manifest), {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${run.id}${includeSecrets ? '-with-secrets' : ''}.zip"`,
        'cache-control': 'no-store',
        'x-bandit-runner-secrets': includeSecrets ? 'included' : 'redacted',
      },
    });
  })
  .all('/:id/artifacts', methodNotAllowed(['GET']))
  .get('/:id/terminal.cast', async (c) => {
    const includeSecrets = secretsWanted(c);
    const { run, events } = await recordOf(c.env, c.req.param('id'));
    const [{ address }, shown] = [
      await targetAddress(c.env, run.config.target, events),
      shownEvents(events, includeSecrets),
    ];
    // The same recording as the archive's terminal.cast.
    return c.body(terminalCast(run.id, run.config, shown.events, address), 200, {
      'content-type': 'application/x-asciicast; charset=utf-8',
      'cache-control': 'no-store',
    });
  })
  .all('/:id/terminal.cast', methodNotAllowed(['GET']))
  .get('/:id/report.html', async (c) => {
    const includeSecrets = secretsWanted(c);
    const { run, events } = await recordOf(c.env, c.req.param('id'));
    const [{ address }, shown] = [
      await targetAddress(c.env, run.config.target, events),
      shownEvents(events, includeSecrets),
    ];
    // The archive's report.html, built the same way, with the same last redaction pass.
    const html = reportHtml({
      run,
      events: shown.events,
      cast: terminalCast(run.id, run.config, shown.events, address),
      secrets: includeSecrets ? 'included' : 'redacted',
      generatedAt: new Date().toISOString(),
    });
    return c.body(shown.secrets.length ? redact(html, shown.secrets) : html, 200, {
      'content-type': 'text/html; charset=utf-8',
      'content-disposition': `inline; filename="${run.id}${includeSecrets ? '-with-secrets' : ''}-report.html"`,
      'content-security-policy': REPORT_CSP,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'x-bandit-runner-secrets': includeSecrets ? 'included' : 'redacted',
    });
  })
  .all('/:id/report.html', methodNotAllowed(['GET']))
  .post('/:id/verify', async (c) => {
    const { run, events } = await recordOf(c.env, c.req.param('id'));
    if (run.config.replay)
      throw new ApiError(
        409,
        'conflict',
        `run ${run.id} is itself a verification run; verify its original, ${run.config.replay.of}`,
      );
    const plan = await replayPlan(run.id, replayableLevels(solvedLevels(events), run.config.startLevel));
    if (!plan) {
      throw new ApiError(
        409,
        'nothing_to_verify',
        `run ${run.id} has no level solved by its own commands from level ${run.config.startLevel} on; verify a run that solved at least one`,
      );
    }
    const longest = Math.max(...plan.levels.map((l) => l.commands.length));
    const config = runConfigSchema.parse({
      target: run.config.target,
      startLevel: plan.levels[0]!.level,
      endLevel: plan.levels.at(-1)!.level,
      model: REPLAY_MODEL,
      maxRetries: 1,
      budget: Math.min(100, longest + VERIFY_EXTRA_STEPS),
      replay: plan,
      // On the practice range a verification re-plays the commands in a fresh world of its own, as the world was
      // laid out: it proves they solve the levels alone, not with what the original or anyone else left behind.
      world: run.config.target === 'practice' ? 'private' : 'shared',
    });
    await takeCreations(c, 1);
    const { run: created } = await launchRun(c.env, config, null);
    await sessionFor(c.env, run.id).addVerification(created.id);
    return c.json(created, 201);
  })
  .all('/:id/verify', methodNotAllowed(['POST']))
  .get('/:id/verification', async (c) => {
    const { run, events, verifications } = await recordOf(c.env, c.req.param('id'));
    return c.json({ report: verificationReport(run, events), verifiedBy: await reportsOf(c.env, verifications) });
  })
  .all('/:id/verification', methodNotAllowed(['GET']));
