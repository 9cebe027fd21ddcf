// The archive's files that grow with the log, each written as one pass over its pages: events.jsonl,
// run.log, transcript.md, terminal.cast and report.html (whose transcript re-reads each level's ranges of
// the log, and whose replay embeds terminal.cast written once more). Each yields a page's text at a time.
import type { RunSummary } from '../../schema/run.ts';
import type { RunFolds, ShownFolds } from './archive-folds.ts';
import type { LogPages } from './log-pages.ts';
import { REPORT_BEFORE_CAST, reportAfterCast, reportHead } from './report-html.ts';
import { castDataPiece } from './report-player.ts';
import {
  LEVEL_BLOCK_CLOSE,
  NO_LEVEL,
  TRANSCRIPT_CLOSE,
  TRANSCRIPT_OPEN,
  levelBlockOpen,
  levelEntries,
} from './report-transcript.ts';
import { RunLogWriter } from './run-log.ts';
import { CastWriter } from './terminal-cast.ts';
import { TranscriptWriter } from './transcript.ts';

/** events.jsonl: every event, one JSON object per line, exactly as the protocol defines them. */
export async function* eventsJsonl(log: LogPages): AsyncIterable<string> {
  let any = false;
  for await (const page of log.pages()) {
    any ||= page.length > 0;
    yield page.map((event) => `${JSON.stringify(event)}\n`).join('');
  }
  if (!any) yield '\n';
}

/** run.log: one readable line per event. */
export async function* runLogText(log: LogPages): AsyncIterable<string> {
  const writer = new RunLogWriter();
  for await (const page of log.pages()) yield writer.write(page);
  yield writer.end();
}

/** transcript.md: its head from the run's figures, then the log's text. */
export async function* transcriptText(run: RunSummary, shown: ShownFolds, log: LogPages): AsyncIterable<string> {
  const writer = new TranscriptWriter(run, shown.summary.record);
  yield writer.head();
  for await (const page of log.pages()) yield writer.write(page);
  yield writer.end();
}

/** terminal.cast: the recording of the log, played at `address`. */
export async function* castText(run: RunSummary, address: string | null, log: LogPages): AsyncIterable<string> {
  const writer = new CastWriter(run.id, run.config, address);
  for await (const page of log.pages()) yield writer.write(page);
  yield writer.end();
}

/** report.html: the head from the folds, the transcript level by level, then the recording as the replay's data. */
export async function* reportFile(
  run: RunSummary,
  shown: ShownFolds,
  folds: RunFolds,
  generatedAt: string,
): AsyncIterable<string> {
  yield reportHead({
    run,
    summary: shown.summary.file(run),
    timeline: shown.timeline,
    secrets: folds.secretsShown,
    generatedAt,
  });
  yield TRANSCRIPT_OPEN;
  for (const [i, { level, ranges }] of shown.plan.entries()) {
    yield `${i ? '\n' : ''}${levelBlockOpen(run.config.target, level)}`;
    let first = true;
    for (const [from, to] of ranges)
      for await (const page of folds.shown.pages(from - 1, to)) {
        const written = levelEntries(page, first);
        first = written.first;
        yield written.html;
      }
    yield LEVEL_BLOCK_CLOSE;
  }
  if (!shown.plan.length) yield NO_LEVEL;
  yield TRANSCRIPT_CLOSE;
  yield `${REPORT_BEFORE_CAST}"`;
  for await (const piece of castText(run, folds.target.address, folds.shown)) yield castDataPiece(piece);
  yield `"${reportAfterCast()}`;
}
