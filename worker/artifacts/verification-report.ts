// A verification run's report: its verdict per level of the original run, folded from its events.
import type { RunEvent, VerifyVerdict } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { VerificationReport } from '../../schema/artifacts.ts';

/** The report of a verification run; null when `run` is not one. */
export function verificationReport(run: RunSummary, events: readonly RunEvent[]): VerificationReport | null {
  const plan = run.config.replay;
  if (!plan) return null;
  const levels = events.flatMap((e) =>
    e.type === 'verify_level' ? [{ level: e.level, verdict: e.verdict, detail: e.detail }] : [],
  );
  const count = (verdict: VerifyVerdict) => levels.filter((l) => l.verdict === verdict).length;
  const planned = plan.levels.map((l) => l.level);
  return {
    runId: run.id,
    of: plan.of,
    status: run.status,
    planned,
    levels,
    reproduced: count('reproduced'),
    drifted: count('drifted'),
    failed: count('failed'),
    ok: count('reproduced') === planned.length,
  };
}
