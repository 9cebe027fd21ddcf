// The run's archive, built from pages of its log: one pass folds what the files need of the whole run (its
// secrets, solved levels, figures, timeline and the transcript's plan), then each file is written as one
// more pass over the pages, redacted as it goes, and zipped as it comes (zip-stream.ts) with manifest.json
// last. What is held at once is a page of the log and the folds (levels, attempts, pauses), never a file.
import { PROTOCOL_VERSION } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { APP_VERSION } from '../../schema/version.ts';
import type { VerificationReport } from '../../schema/artifacts.ts';
import { arrayPages } from './log-pages.ts';
import type { LogPages } from './log-pages.ts';
import { foldLog } from './archive-folds.ts';
import type { RunFolds, ShownFolds } from './archive-folds.ts';
import { castText, eventsJsonl, reportFile, runLogText, transcriptText } from './archive-texts.ts';
import { redactorOf } from './redact.ts';
import { replayFiles } from './replay-scripts.ts';
import { createHash } from 'node:crypto';
import { once, zipStream } from './zip-stream.ts';
import type { ArchiveEntry, ListedFile } from './zip-stream.ts';

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
  /** The run's log as stored (secrets and all), through the seq the archive began at. */
  log: LogPages;
  /** The run's model calls a page at a time; a page that throws means D1 did not answer. */
  calls: () => AsyncIterable<readonly ArchivedCall[]>;
  /** The reports of the runs that verified this one. */
  verifiedBy: readonly VerificationReport[];
  /** Where the run played, from the address its log recorded (null: none recorded). */
  target: (recorded: string | null) => Promise<{ address: string | null; host: string }>;
  includeSecrets: boolean;
};

/** An archive ready to be written: what the folds found, and the files each as its own pass. */
export type PreparedArchive = {
  run: RunFolds;
  shown: ShownFolds;
  /** One file's text, in pieces, as the archive holds it (redacted unless secrets were asked for). */
  file(path: 'terminal.cast' | 'report.html'): AsyncIterable<string>;
  /** Every file but the manifest, in the archive's order. */
  entries(): AsyncIterable<ArchiveEntry>;
  /** manifest.json, given what the other files were. */
  manifest(files: ListedFile[]): string;
  /** The whole archive as a zip. */
  zip(): ReadableStream<Uint8Array>;
};

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Folds the log once, so the files can be written a page at a time. */
export async function prepareArchive(input: ArchiveInput): Promise<PreparedArchive> {
  const { run } = input;
  const { folds, shown } = await foldLog(run, input.log, input.includeSecrets, input.target);
  const { secrets } = folds;
  /** Each piece of a file passes the redaction once more: whatever a builder let through is caught here. */
  const redact = redactorOf(secrets);
  async function* redacted(path: string, text: AsyncIterable<string>): AsyncIterable<string> {
    // JSON files need only the JSON forms; a text pass over them could split an escape. Text files need both.
    const options = { json: path.endsWith('.json') || path.endsWith('.jsonl') };
    for await (const piece of text) yield secrets.length ? redact(piece, options) : piece;
  }
  const entry = (path: string, text: AsyncIterable<string>): ArchiveEntry => ({ path, text: redacted(path, text) });
  const missing: string[] = [];

  async function* entries(): AsyncIterable<ArchiveEntry> {
    yield entry('summary.json', once(json(shown.summary.file(run))));
    yield entry('events.jsonl', eventsJsonl(folds.shown));
    yield entry('run.log', runLogText(folds.shown));
    yield entry('transcript.md', transcriptText(run, shown, folds.shown));
    yield entry('tool_metrics.json', once(json(shown.toolMetrics.file())));
    yield entry('lessons.json', once(json(shown.lessons.file())));
    yield entry('terminal.cast', castText(run, folds.target.address, folds.shown));
    yield entry('report.html', reportFile(run, shown, folds, new Date().toISOString()));
    for (const [path, text] of await replayFiles(run.id, run.config.target, folds.replayable, folds.target.address))
      yield entry(path, once(text));
    yield* callEntries();
    if (folds.report) yield entry('verify/report.json', once(json(folds.report)));
    for (const report of input.verifiedBy) yield entry(`verify/${report.runId}.json`, once(json(report)));
  }

  /** llm/NNNN-<stage>.json, a page of calls at a time; when D1 stops answering, the manifest says so. */
  async function* callEntries(): AsyncIterable<ArchiveEntry> {
    let n = 0;
    try {
      for await (const page of input.calls())
        for (const call of page)
          yield entry(`llm/${String(++n).padStart(4, '0')}-${call.stage}.json`, once(json(call)));
    } catch (err) {
      console.error(`artifacts of ${run.id}: D1 did not answer: ${err instanceof Error ? err.message : String(err)}`);
      missing.push(
        n === 0
          ? 'llm/: the run index (D1) did not answer; download again to get the model calls'
          : `llm/: the run index (D1) stopped answering after ${n} model calls; download again to get the rest`,
      );
    }
  }

  const manifest = (files: ListedFile[]) =>
    json({
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
      target: { name: run.config.target, address: folds.target.address },
      createdAt: new Date().toISOString(),
      secrets: input.includeSecrets ? 'included' : 'redacted',
      redactions: secrets.map((s) => s.redaction),
      verification: { of: folds.report?.of ?? null, verifiedBy: input.verifiedBy.map((r) => r.runId) },
      replay: {
        levels: folds.replayable.map((l) => l.level),
        script: folds.replayable.length ? 'replay/replay.sh' : null,
      },
      missing,
      files,
    });

  return {
    run: folds,
    shown,
    file: (path) =>
      redacted(
        path,
        path === 'terminal.cast'
          ? castText(run, folds.target.address, folds.shown)
          : reportFile(run, shown, folds, new Date().toISOString()),
      ),
    entries,
    manifest,
    zip: () => zipStream(entries(), manifest),
  };
}

/**
 * The archive of a log held in memory, as files by path with the manifest: for tests and benches. `calls`
 * null: D1 did not answer.
 */
export async function archiveFiles(
  input: Omit<ArchiveInput, 'log' | 'calls' | 'target'> & {
    events: Parameters<typeof arrayPages>[0];
    calls: readonly ArchivedCall[] | null;
    target: { address: string | null; host: string };
  },
): Promise<{ files: Map<string, string>; manifest: Record<string, unknown> }> {
  const { calls, target } = input;
  const archive = await prepareArchive({
    ...input,
    log: arrayPages(input.events),
    calls: async function* () {
      if (!calls) throw new Error('D1 did not answer');
      yield calls;
    },
    target: async () => target,
  });
  const files = new Map<string, string>();
  const listed: ListedFile[] = [];
  for await (const { path, text } of archive.entries()) {
    let whole = '';
    for await (const piece of text) whole += piece;
    files.set(path, whole);
    const bytes = new TextEncoder().encode(whole);
    listed.push({ path, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return { files, manifest: JSON.parse(archive.manifest(listed)) as Record<string, unknown> };
}
