// A verification run's report: its verdict per level of the original run, folded from its events.
import type { RunEvent, VerifyVerdict } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { VerificationReport } from '../../schema/artifacts.ts';

type VerifiedLevel = VerificationReport['levels'][number];

/** A verification run's verdicts, folded an event at a time (one per level it re-played). */
export class VerdictsFold {
  readonly levels: VerifiedLevel[] = [];

  add(event: RunEvent): void {
    if (event.type === 'verify_level')
      this.levels.push({ level: event.level, verdict: event.verdict, detail: event.detail });
  }
}

/** The report of a verification run; null when `run` is not one. */
export function verificationReport(run: RunSummary, events: readonly RunEvent[]): VerificationReport | null {
  const fold = new VerdictsFold();
  for (const event of events) fold.add(event);
  return reportOf(run, fold.levels);
}

/** The report of a verification run from its verdicts; null when `run` is not one. */
export function reportOf(run: RunSummary, levels: readonly VerifiedLevel[]): VerificationReport | null {
  const plan = run.config.replay;
  if (!plan) return null;
  const count = (verdict: VerifyVerdict) => levels.filter((l) => l.verdict === verdict).length;
  const planned = plan.levels.map((l) => l.level);
  return {
    runId: run.id,
    of: plan.of,
    status: run.status,
    planned,
    levels: [...levels],
    reproduced: count('reproduced'),
    drifted: count('drifted'),
    failed: count('failed'),
    ok: count('reproduced') === planned.length,
  };
}
