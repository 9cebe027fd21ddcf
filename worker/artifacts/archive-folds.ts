// What the archive's files need of the whole run, folded in one pass over the pages of its log before any
// file is written: its secrets, solved levels, last address and verdicts, its figures, timeline and the
// report transcript's plan. Each holds levels, attempts and pauses, not events.
import type { VerificationReport } from '../../schema/artifacts.ts';
import type { RunSummary } from '../../schema/run.ts';
import { timelineFold } from '../../schema/timeline.ts';
import type { Span } from '../../schema/timeline.ts';
import { shownPages } from './log-pages.ts';
import type { LogPages } from './log-pages.ts';
import { SecretsFold } from './redact.ts';
import type { RunSecret } from './redact.ts';
import { TranscriptPlanFold } from './report-transcript.ts';
import type { TranscriptPlan } from './report-transcript.ts';
import { LessonsFold, SummaryFold, ToolMetricsFold } from './run-figures.ts';
import { SolvedLevelsFold, replayableLevels } from './solved-levels.ts';
import type { SolvedLevel } from './solved-levels.ts';
import { VerdictsFold, reportOf } from './verification-report.ts';

/** The secrets to redact, the log as shown, and what the replay scripts need. */
export type RunFolds = {
  secrets: RunSecret[];
  /** Whether the files show the secrets (asked for) or placeholders. */
  secretsShown: 'included' | 'redacted';
  /** The log as the archive shows it: each page redacted unless secrets were asked for. */
  shown: LogPages;
  replayable: SolvedLevel[];
  /** This run's own report, when it is a verification run. */
  report: VerificationReport | null;
  target: { address: string | null; host: string };
};

/** The figures' folds, the timeline's levels and the report transcript's plan. */
export type ShownFolds = {
  summary: SummaryFold;
  lessons: LessonsFold;
  toolMetrics: ToolMetricsFold;
  timeline: Span[];
  plan: TranscriptPlan;
};

/**
 * One pass over the log as stored gives both. The figures need no redacted log: they hold numbers, levels and
 * seqs, and the text they copy (a pause's question and answer, a lesson) passes, in summary.json and
 * lessons.json, the last redaction every file gets, which replaces in it what redacting the events would have.
 */
export async function foldLog(
  run: RunSummary,
  log: LogPages,
  includeSecrets: boolean,
  target: (recorded: string | null) => Promise<RunFolds['target']>,
): Promise<{ folds: RunFolds; shown: ShownFolds }> {
  const secrets = new SecretsFold();
  const solved = new SolvedLevelsFold();
  const verdicts = new VerdictsFold();
  const summary = new SummaryFold();
  const lessons = new LessonsFold();
  const toolMetrics = new ToolMetricsFold();
  const timeline = timelineFold({ nodes: false });
  const plan = new TranscriptPlanFold();
  // Where the run played: the address the last level_started names (the proxy records it).
  let address: string | null = null;
  for await (const page of log.pages())
    for (const event of page) {
      if (!includeSecrets) secrets.add(event);
      solved.add(event);
      verdicts.add(event);
      if (event.type === 'level_started' && event.address !== undefined) address = event.address;
      summary.add(event);
      lessons.add(event);
      toolMetrics.add(event);
      timeline.add(event);
      plan.add(event);
    }
  return {
    folds: {
      secrets: secrets.secrets,
      secretsShown: includeSecrets ? 'included' : 'redacted',
      shown: shownPages(log, secrets.secrets),
      replayable: replayableLevels(solved.solved, run.config.startLevel),
      report: reportOf(run, verdicts.levels),
      target: await target(address),
    },
    shown: { summary, lessons, toolMetrics, timeline: timeline.levels, plan: plan.plan },
  };
}
