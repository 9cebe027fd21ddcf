// Time and size of report.html for long runs (test/support/long-run.ts logs of 5,000 to 50,000 events):
// the builder alone, and the whole archive it is part of, each the median of a few builds.
// `node bench/report-html.ts`
import { archiveFiles } from '../worker/artifacts/build-archive.ts';
import { reportHtml } from '../worker/artifacts/report-html.ts';
import { terminalCast } from '../worker/artifacts/terminal-cast.ts';
import { LongRunLog, longRunSummary } from '../test/support/long-run.ts';

const ROUNDS = 3;

/** The median of `ROUNDS` timings of `work`, in ms, and its last result. */
async function timed<T>(work: () => T | Promise<T>): Promise<{ ms: number; result: T }> {
  const times: number[] = [];
  let result!: T;
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    result = await work();
    times.push(performance.now() - start);
  }
  return { ms: times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!, result };
}

const kb = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(0)} KB`;

console.log('events   report.html  built in   archive (all files)  built in');
for (const count of [5_000, 20_000, 50_000]) {
  const log = new LongRunLog(count);
  log.grow(count);
  const run = longRunSummary('stopped', 32);
  const cast = terminalCast(run.id, run.config, log.events, null);
  const report = await timed(() =>
    reportHtml({ run, events: log.events, cast, secrets: 'redacted', generatedAt: new Date().toISOString() }),
  );
  const archive = await timed(() =>
    archiveFiles({
      run,
      events: log.events,
      calls: [],
      verifiedBy: [],
      target: { address: '127.0.0.1:2220', host: '127.0.0.1' },
      includeSecrets: false,
    }),
  );
  const total = [...archive.result.files.values()].reduce((n, text) => n + Buffer.byteLength(text), 0);
  console.log(
    `${String(count).padStart(6)}   ${kb(report.result).padStart(11)}  ${report.ms.toFixed(0).padStart(5)} ms` +
      `   ${`${(total / 1024).toFixed(0)} KB`.padStart(19)}  ${archive.ms.toFixed(0).padStart(5)} ms`,
  );
}
