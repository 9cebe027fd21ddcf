// The archive is streamed from pages of the log (worker/artifacts/archive-stream.ts), and streaming changed
// nothing: a run of several pages of events (some cut by bytes), seeded straight into its object, with its
// model calls in D1 as stored deltas over several pages, gives exactly the files the whole-in-memory builder
// gave for it (test/fixtures/archive-golden.json, taken from that builder), and the manifest agrees with them.
import { env, runInDurableObject } from 'cloudflare:test';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { encodeRequest } from '../../schema/request-delta.ts';
import { migrate } from '../../worker/object-sql/migrate.ts';
import { runSessionMigrations } from '../../worker/object-sql/run-session-migrations.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import golden from '../fixtures/archive-golden.json';
import { ARCHIVE_RUN_ID, archiveLog, archiveRunConfig, archiveRunTimes } from '../support/archive-log.ts';
import { call } from './http.ts';

const events = archiveLog();
const { created, ended } = archiveRunTimes(events);
const CALLS = 260;

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The run's object holds its row and log; D1 its row and CALLS model calls, each request a delta on the one before
 * (whole every 40th, so chains cross the archive's pages of 100 calls).
 */
async function seed(): Promise<void> {
  const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName(ARCHIVE_RUN_ID));
  await runInDurableObject(stub, (_instance: RunSession, state) => {
    migrate(state.storage, runSessionMigrations, created);
    const sql = state.storage.sql;
    sql.exec(
      `INSERT INTO run (singleton, run_id, config, status, current_level, levels_solved, created_at, updated_at, started_at, ended_at)
       VALUES (1, ?, ?, 'completed', 7, 7, ?, ?, ?, ?)`,
      ARCHIVE_RUN_ID,
      JSON.stringify(archiveRunConfig),
      created,
      ended,
      created,
      ended,
    );
    for (const e of events)
      sql.exec(
        'INSERT INTO events (seq, ts, type, level, json) VALUES (?, ?, ?, ?, ?)',
        e.seq,
        Date.parse(e.ts),
        e.type,
        'level' in e && typeof e.level === 'number' ? e.level : null,
        JSON.stringify(e),
      );
  });
  const statements = [
    env.DB.prepare(
      `INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, created_at, updated_at)
       VALUES (?, 'completed', 'practice', 'archive-model', 0, 6, 40, 15, 7, 7, ?, ?)`,
    ).bind(ARCHIVE_RUN_ID, created, ended),
  ];
  const calls = events.filter((e) => e.type === 'llm_call').slice(0, CALLS);
  let previous: { id: string; request: unknown } | null = null;
  for (const [i, call] of calls.entries()) {
    const request = {
      model: 'archive-model',
      temperature: 0,
      messages: [
        { role: 'system', content: 'You play bandit.' },
        ...Array.from({ length: 1 + (i % 25) }, (_, k) => ({ role: 'user', content: `turn ${i - (i % 25) + k}` })),
      ],
    };
    const stored = i % 40 === 0 || !previous ? request : encodeRequest(previous.request, previous.id, request);
    const id = `${ARCHIVE_RUN_ID}:${call.callId}`;
    statements.push(
      env.DB.prepare(
        `INSERT INTO llm_calls (id, run_id, seq, level, model, stage, prompt_tokens, completion_tokens, latency_ms, cost_usd, error_class, request, response, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        id,
        ARCHIVE_RUN_ID,
        call.seq,
        call.level,
        call.model,
        call.stage,
        call.promptTokens,
        call.completionTokens,
        call.latencyMs,
        call.costUsd,
        call.errorClass,
        JSON.stringify(stored),
        JSON.stringify({ content: `answer ${i}` }),
        Date.parse(call.ts),
      ),
    );
    previous = { id, request };
  }
  await env.DB.batch(statements);
}

/** The parts of an archive that depend on when it was made, written the same way each time. */
function normalised(path: string, text: string): string {
  if (path === 'report.html') return text.replace(/Made \S+Z\./, 'Made (date).');
  return text;
}

describe('the streamed archive', () => {
  it('holds the same files as the whole-in-memory builder made for a run of several pages', async () => {
    await seed();
    const results: Record<string, unknown> = {};
    for (const secrets of ['redacted', 'included'] as const) {
      const response = await call(
        `/api/runs/${ARCHIVE_RUN_ID}/artifacts${secrets === 'included' ? '?secrets=include' : ''}`,
      );
      expect(response.status).toBe(200);
      const zip = unzipSync(new Uint8Array(await response.arrayBuffer()));
      const decoder = new TextDecoder();
      const manifest = JSON.parse(decoder.decode(zip['manifest.json'])) as {
        createdAt: string;
        files: { path: string; bytes: number; sha256: string }[];
      };
      // The manifest lists every other file, in the archive's order, with its size and hash as served.
      expect(manifest.files.map((f) => f.path)).toEqual(Object.keys(zip).filter((p) => p !== 'manifest.json'));
      for (const file of manifest.files) {
        expect(zip[file.path]?.length).toBe(file.bytes);
        expect(await sha256(zip[file.path]!)).toBe(file.sha256);
      }
      const files: Record<string, string> = {};
      for (const [path, bytes] of Object.entries(zip)) {
        if (path === 'manifest.json') continue;
        files[path] = await sha256(new TextEncoder().encode(normalised(path, decoder.decode(bytes))));
      }
      const { createdAt: _, files: listed, ...rest } = manifest;
      const got = { files, manifest: { ...rest, files: listed.filter((f) => f.path !== 'report.html') } };
      results[secrets] = got;
    }
    if (!('redacted' in golden)) console.log(`GOLDEN ${JSON.stringify(results)}`);
    expect(results).toEqual(golden);
  }, 120_000);
});
