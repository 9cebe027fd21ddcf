// A fuzzed corpus of bad input (fast-check, thousands of cases): REST bodies and queries, socket
// messages and proxy NDJSON lines. Each is answered with a 4xx or an error frame, never a 5xx or a
// crash, and the run it was aimed at is unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientMessageSchema } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { createRunBodySchema, runActionSchema } from '../../schema/run.ts';
import { parseLine } from '../../worker/run-session/proxy-link.ts';
import { call, createRun, waitForStatus } from './http.ts';
import { connect } from './socket-client.ts';

const send = (path: string, body: string) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const lastSeq = async (id: string) =>
  ((await (await call(`/api/runs/${id}/events?since=0&limit=1`)).json()) as { lastSeq: number }).lastSeq;
/**
 * The run as GET /api/runs/:id shows it, less its hosting counts: every request, refused or not, is a request
 * Cloudflare bills, so those grow with the fuzzing by design; the run itself must not change.
 */
const summary = async (id: string) => {
  const { hosting: _billed, ...run } = (await (await call(`/api/runs/${id}`)).json()) as RunSummary;
  return run;
};

/** JSON text: any JSON value, objects shaped like the real bodies with wrong fields, or not JSON at all. */
const bodyText = (shape: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.record(shape, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.constant(-1),
  fc.constant(1e300),
);
const parses = (schema: { safeParse: (v: unknown) => { success: boolean } }, text: string) => {
  try {
    return schema.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
};

describe('fuzzed bad input', () => {
  it('POST /api/runs: every invalid body is a 4xx', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        bodyText({
          target: anyValue,
          startLevel: anyValue,
          endLevel: anyValue,
          model: anyValue,
          maxRetries: anyValue,
          budget: anyValue,
          extra: anyValue,
        }),
        async (text) => {
          fc.pre(!parses(createRunBodySchema, text) && text.trim() !== ''); // a valid one would start a run
          const response = await send('/api/runs', text);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          expect(await response.json()).toMatchObject({
            error: { code: expect.any(String), message: expect.any(String) },
          });
        },
      ),
      { numRuns: 1_000 },
    );
    console.log(`fuzz POST /api/runs: ${[...statuses].map(([s, n]) => `${n}×${s}`).join(', ')}`);
  });

  it('actions and queries on a paused run: every bad one is a 4xx and the run is unchanged', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const before = await summary(run.id);
    const seq = await lastSeq(run.id);
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        bodyText({
          action: fc.oneof(anyValue, fc.constantFrom('continue', 'password', 'stop', 'pause', 'resume')),
          hint: anyValue,
          value: anyValue,
        }),
        async (text) => {
          fc.pre(!parses(runActionSchema, text));
          tried += 1;
          const response = await send(`/api/runs/${run.id}/actions`, text);
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 500 },
    );
    const queries = fc.dictionary(
      fc.constantFrom('since', 'limit', 'status', 'cursor', 'token', 'x'),
      fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String)),
      { maxKeys: 4 },
    );
    await fc.assert(
      fc.asyncProperty(queries, fc.constantFrom('/api/runs', `/api/runs/${run.id}/events`), async (query, path) => {
        tried += 1;
        const response = await call(`${path}?${new URLSearchParams(query)}`);
        expect([200, 400]).toContain(response.status);
      }),
      { numRuns: 500 },
    );
    expect(await summary(run.id)).toEqual(before);
    expect(await lastSeq(run.id)).toBe(seq);
    console.log(`fuzz actions and queries: ${tried} tried, run unchanged`);
  });

  it('socket messages: every bad one gets an error frame, the socket stays open and the run is unchanged', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const before = await summary(run.id);
    const seq = await lastSeq(run.id);
    const socket = await connect(`/api/runs/${run.id}/ws`);
    expect((await socket.next()).type).toBe('welcome');
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        bodyText({
          type: fc.oneof(anyValue, fc.constantFrom('hello', 'user_action', 'pause', 'resume', 'stop', 'ping')),
          since: anyValue,
          action: anyValue,
          hint: anyValue,
          value: anyValue,
        }),
        async (text) => {
          fc.pre(!parses(clientMessageSchema, text));
          tried += 1;
          socket.send(text);
          expect(await socket.next()).toMatchObject({
            type: 'error',
            code: expect.stringMatching(/^(invalid_json|invalid_message|message_too_large)$/),
          });
        },
      ),
      { numRuns: 1_000 },
    );
    socket.send({ type: 'ping' });
    expect((await socket.next()).type).toBe('pong');
    expect(await summary(run.id)).toEqual(before);
    expect(await lastSeq(run.id)).toBe(seq);
    console.log(`fuzz socket messages: ${tried} tried, ${tried} error frames, run unchanged`);
  });

  it('proxy NDJSON lines: every malformed line is refused with a reason, never thrown', () => {
    let refused = 0;
    fc.assert(
      fc.property(
        bodyText({
          type: fc.oneof(anyValue, fc.constantFrom('event', 'checkpoint', 'trace', 'end')),
          event: anyValue,
          checkpoint: anyValue,
          outcome: anyValue,
        }),
        (text) => {
          const result = parseLine(text);
          if (!result.ok) {
            refused += 1;
            expect(result.message).toMatch(/^the proxy sent (a line that is not JSON|an invalid line)/);
          }
        },
      ),
      { numRuns: 2_000 },
    );
    expect(refused).toBeGreaterThan(1_900);
    console.log(`fuzz NDJSON lines: 2000 tried, ${refused} refused with a reason, 0 thrown`);
  });
});
