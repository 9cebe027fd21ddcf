// The run's archive: every file built from the run's log, its model calls and its verifications,
// secrets redacted unless asked for, then zipped (fflate) as a stream, one file per pull, with
// manifest.json last so it can give the sha256 of every other file.
import { Zip, ZipDeflate } from 'fflate';
import type { RunEvent } from '../../schema/protocol.ts';
import { PROTOCOL_VERSION } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { APP_VERSION } from '../../schema/version.ts';
import { redact, shownEvents } from './redact.ts';
import { reportHtml } from './report-html.ts';
import { replayFiles } from './replay-scripts.ts';
import { lessonsFile, runSummaryFile, toolMetricsFile } from './run-figures.ts';
import { runLog } from './run-log.ts';
import { replayableLevels, sha256Hex, solvedLevels } from './solved-levels.ts';
import { terminalCast } from './terminal-cast.ts';
import { transcript } from './transcript.ts';
import type { VerificationReport } from '../../schema/artifacts.ts';

/** One model call as D1 holds it, its request rebuilt whole. */
export type ArchivedCall = {
  seq: number;
  stage: string;
  model: string;
  level: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  costUsd: number | null;
  errorClass: string | null;
  request: unknown;
  response: unknown;
};

export type ArchiveInput = {
  run: RunSummary;
  events: readonly RunEvent[];
  /** null when D1 could not be read; the manifest then says the llm/ files are missing. */
  calls: readonly ArchivedCall[] | null;
  /** This run's own report when it is a verification run, and the reports of runs that verified it. */
  report: VerificationReport | null;
  verifiedBy: readonly VerificationReport[];
  target: { address: string | null; host: string };
  includeSecrets: boolean;
};

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Every file of the archive but the manifest, by path, and what the manifest says of them. */
export async function archiveFiles(
  input: ArchiveInput,
): Promise<{ files: Map<string, string>; manifest: Record<string, unknown> }> {
  const { run } = input;
  // Files are built from the redacted log; the replay scripts need only the passwords' hashes, taken first.
  const { events, secrets } = shownEvents(input.events, input.includeSecrets);
  const replayable = replayableLevels(solvedLevels(input.events), run.config.startLevel);

  const files = new Map<string, string>();
  files.set('summary.json', json(runSummaryFile(run, events)));
  files.set('events.jsonl', `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
  files.set('run.log', runLog(events));
  files.set('transcript.md', transcript(run, events));
  files.set('tool_metrics.json', json(toolMetricsFile(events)));
  files.set('lessons.json', json(lessonsFile(events)));
  const cast = terminalCast(run.id, run.config, events, input.target.address);
  files.set('terminal.cast', cast);
  files.set(
    'report.html',
    reportHtml({
      run,
      events,
      cast,
      secrets: input.includeSecrets ? 'included' : 'redacted',
      generatedAt: new Date().toISOString(),
    }),
  );
  for (const [path, text] of await replayFiles(run.id, run.config.target, replayable, input.target.address))
    files.set(path, text);
  for (const [i, call] of (input.calls ?? []).entries()) {
    files.set(`llm/${String(i + 1).padStart(4, '0')}-${call.stage}.json`, json(call));
  }
  if (input.report) files.set('verify/report.json', json(input.report));
  for (const report of input.verifiedBy) files.set(`verify/${report.runId}.json`, json(report));
  // A last pass over every file: whatever a builder let through is caught here.
  // JSON files need only the JSON forms; a text pass over them could split an escape. Text files need both.
  if (secrets.length)
    for (const [path, text] of files)
      files.set(path, redact(text, secrets, { json: path.endsWith('.json') || path.endsWith('.jsonl') }));

  const listed = await Promise.all(
    [...files].map(async ([path, text]) => ({
      path,
      bytes: new TextEncoder().encode(text).length,
      sha256: await sha256Hex(text),
    })),
  );
  const manifest = {
    format: 'bandit-runner-artifacts',
    formatVersion: 1,
    versions: { banditRunner: APP_VERSION, protocol: PROTOCOL_VERSION },
    run: {
      id: run.id,
      config: run.config,
      status: run.status,
      levelsSolved: run.levelsSolved,
      createdAt: run.createdAt,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
    },
    target: { name: run.config.target, address: input.target.address },
    createdAt: new Date().toISOString(),
    secrets: input.includeSecrets ? 'included' : 'redacted',
    redactions: secrets.map((s) => s.redaction),
    verification: { of: input.report?.of ?? null, verifiedBy: input.verifiedBy.map((r) => r.runId) },
    replay: { levels: replayable.map((l) => l.level), script: replayable.length ? 'replay/replay.sh' : null },
    missing:
      input.calls === null ? ['llm/: the run index (D1) did not answer; download again to get the model calls'] : [],
    files: listed,
  };
  return { files, manifest };
}

/** The zip as a stream: one file compressed per pull, so a slow reader holds back the work. */
export function zipStream(files: ReadonlyMap<string, string>, manifest: unknown): ReadableStream<Uint8Array> {
  const entries = [...files, ['manifest.json', json(manifest)] as const];
  const encoder = new TextEncoder();
  let zip: Zip;
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) return controller.error(err);
        if (chunk.length) controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    pull() {
      const entry = entries[next++];
      if (!entry) return;
      const [path, text] = entry;
      // Scripts are executable once unpacked (unzip keeps the mode).
      const file = new ZipDeflate(path, { level: 6 });
      if (path.endsWith('.sh')) {
        file.os = 3; // Unix, so the mode below is read
        file.attrs = 0o100755 << 16;
      }
      zip.add(file);
      file.push(encoder.encode(text), true);
      if (next === entries.length) zip.end();
    },
  });
}
