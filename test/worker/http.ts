// Helpers for calling the worker under test through its real fetch handler.
import { exports } from 'cloudflare:workers';
import { expect, vi } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';

/** A request to the worker at `path`. */
export function call(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`http://127.0.0.1${path}`, init));
}

/** POST JSON (or a raw string) to the worker. */
export function postJson(path: string, body: unknown): Promise<Response> {
  return call(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Creates a run and returns it; fails the test if the API refuses. */
export async function createRun(config: Record<string, unknown> = {}): Promise<RunSummary> {
  const response = await postJson('/api/runs', config);
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as RunSummary;
}

/** Waits until the run reaches `status` (the alarm drives it in the background) and returns it. */
export async function waitForStatus(id: string, status: RunSummary['status'], timeout = 10_000): Promise<RunSummary> {
  const read = async () => (await (await call(`/api/runs/${id}`)).json()) as RunSummary;
  await vi.waitFor(async () => expect((await read()).status).toBe(status), { timeout, interval: 25 });
  return read();
}

/** Every stored event of the run, page by page, through GET /api/runs/:id/events. */
export async function eventsOf(id: string): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for (let since: number | null = 0; since !== null; ) {
    const page = (await (await call(`/api/runs/${id}/events?since=${since}&limit=1000`)).json()) as {
      events: RunEvent[];
      nextSince: number | null;
    };
    all.push(...page.events);
    since = page.events.length ? page.nextSince : null;
  }
  return all;
}

/** The events of one type, typed. */
export const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
