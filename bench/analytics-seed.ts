// Seeds a migrated local D1 for the analytics benchmark: runs with 30 model calls,
// 60 commands, 90 node executions and 6 level roll-ups each, generated inside SQLite by recursive
// CTEs (one statement per table) so that 10,000 runs take seconds, not minutes.

export const T0 = Date.parse('2026-10-01T00:00:00Z');
export const DAYS = 30;
const MODELS = 5;
/** Rows per run: the run, 6 level roll-ups, 30 model calls, 60 commands and 90 node executions. */
export const ROWS_PER_RUN = 1 + 6 + 30 + 60 + 90;
/** Runs per batch: small enough that workerd answers each batch in well under a second. */
const CHUNK = 500;

/** Seeds `runs` runs, in chunks. Values vary with the row number through cheap hashes, so groups and ranks are realistic. */
export async function seed(db: D1Database, runs: number): Promise<void> {
  for (let first = 0; first < runs; first += CHUNK) await seedChunk(db, runs, first, Math.min(runs, first + CHUNK));
}

async function seedChunk(db: D1Database, runs: number, first: number, end: number): Promise<void> {
  // `WITH RECURSIVE n(i)` counting the chunk's rows: they are generated inside SQLite, not sent one by one.
  const numbers = (perRun: number) =>
    `WITH RECURSIVE n(i) AS (SELECT ${first * perRun} UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${end * perRun})`;
  const span = Math.floor((DAYS * 86_400_000) / runs);
  const at = (run: string) => `(${T0} + (${run}) * ${span})`;
  const id = (run: string) => `printf('run_bench%020d', ${run})`;
  // Bandit runs fall on one of two days' level sets, practice runs on the catalogue's: the board keeps them apart.
  const levelSet = (run: string) =>
    `CASE (${run}) % 3 WHEN 0 THEN 'bandit@2026-11-0' || (1 + (${run}) % 2) ELSE 'practice@2026.11.1' END`;
  const model = (run: string) => `'bench-model-' || ((${run}) % ${MODELS})`;
  const response = `CASE WHEN i % 97 = 0 OR i % 89 = 0 THEN json_object('error', 'bench failure') ELSE json_object('content', '${'x'.repeat(300)}') END`;
  await db.batch([
    db.prepare(`${numbers(1)}
      INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, prompt_tokens, completion_tokens, cost_usd, created_at, updated_at, started_at, ended_at, level_set)
      SELECT ${id('i')}, CASE i % 10 WHEN 0 THEN 'failed' WHEN 1 THEN 'paused_for_user_action' WHEN 2 THEN 'stopped' ELSE 'completed' END,
        CASE i % 3 WHEN 0 THEN 'bandit' ELSE 'practice' END, ${model('i')}, 0, 12, 3, 15, 6, 5, 30000, 6000, 0.3,
        ${at('i')}, ${at('i')} + 60000, ${at('i')}, ${at('i')} + 60000, ${levelSet('i')} FROM n`),
    db.prepare(`${numbers(6)}
      INSERT INTO run_levels (run_id, level, model, target, started_at, ended_at, attempts, retries, pauses, pause_reasons, solved, helped, commands, prompt_tokens, completion_tokens, cost_usd, level_set)
      SELECT ${id('i / 6')}, i % 6, ${model('i / 6')}, CASE (i / 6) % 3 WHEN 0 THEN 'bandit' ELSE 'practice' END, ${at('i / 6')} + (i % 6) * 10000,
        CASE WHEN (i * 7) % 10 < 8 THEN ${at('i / 6')} + (i % 6) * 10000 + 2000 + (i * 7919) % 8000 END,
        1 + (i % 3), i % 3, CASE WHEN i % 11 = 0 THEN 1 ELSE 0 END, CASE WHEN i % 11 = 0 THEN '{"max_retries":1}' ELSE '{}' END, (i * 7) % 10 < 8, i % 13 = 0, 10, 5000, 1000, 0.05, ${levelSet('i / 6')} FROM n`),
    db.prepare(`${numbers(30)}
      INSERT INTO llm_calls (id, run_id, seq, level, model, stage, prompt_tokens, completion_tokens, latency_ms, cost_usd, error_class, request, response, created_at)
      SELECT ${id('i / 30')} || ':' || (i % 30), ${id('i / 30')}, (i % 30) * 6 + 1, (i % 30) / 5, ${model('i / 30')}, CASE i % 5 WHEN 4 THEN 'reflect' ELSE 'plan' END,
        1000, 200, 200 + (i * 7919) % 3000, 0.01,
        CASE WHEN i % 97 = 0 THEN 'timeout' WHEN i % 89 = 0 THEN 'rate_limited' END, NULL, ${response}, ${at('i / 30')} + (i % 30) * 2000 FROM n`),
    db.prepare(`${numbers(60)}
      INSERT INTO commands (run_id, seq, level, command, exit_code, duration_ms, output_bytes, truncated, created_at)
      SELECT ${id('i / 60')}, ((i % 60) / 2) * 6 + 3 + (i % 2), (i % 60) / 10, 'ls -la inhere/maybehere0' || (i % 10), (i % 7 = 0), 5 + (i * 31) % 40, 600, 0,
        ${at('i / 60')} + (i % 60) * 1000 FROM n`),
    db.prepare(`${numbers(90)}
      INSERT INTO executions (run_id, seq, node, level, started_at, duration_ms, status, error)
      SELECT ${id('i / 90')}, ((i % 90) / 3) * 6 + CASE i % 3 WHEN 0 THEN 2 WHEN 1 THEN 5 ELSE 6 END, CASE i % 3 WHEN 0 THEN 'plan' WHEN 1 THEN 'execute' ELSE 'validate' END,
        (i % 90) / 15, ${at('i / 90')} + (i % 90) * 700, CASE WHEN i % 53 = 0 THEN 5000 + (i * 131) % 9000 ELSE 10 + (i * 7919) % 900 END,
        CASE WHEN i % 499 = 0 THEN 'error' ELSE 'ok' END, CASE WHEN i % 499 = 0 THEN 'node "' || CASE i % 3 WHEN 0 THEN 'plan' WHEN 1 THEN 'execute' ELSE 'validate' END || '" failed: bench' END FROM n`),
  ]);
}
