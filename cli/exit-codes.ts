// The CLI's exit codes, one per way a run or a command can end, so a script can branch on them.
// Documented in docs/cli.md; `--json` output carries the same outcome in words.
export const EXIT = {
  /** Every run completed (or the command did what it was asked). */
  completed: 0,
  /** A run failed, or the stack answered with an error. */
  failed: 1,
  /** A bad flag or value: nothing was started. */
  usage: 2,
  /** A run is paused for a person and nobody here answered (not interactive, or --on-pause wait). */
  paused: 3,
  /** A run was stopped (by --on-pause stop, a person, or Ctrl-C). */
  stopped: 4,
  /** The stack did not answer at --url. */
  unreachable: 5,
  /** `attach`/`play`: another client holds the run's terminal (the stack's 409 `terminal_held`). */
  held: 6,
  /** `attach`/`play`: the terminal was closed by the server (idle, restart, stop, the shell ended). */
  terminalClosed: 7,
  /** A run was stopped at a budget cap (--on-budget stop, a second hit after raise=X, or a hands-off run). */
  budget: 8,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI reports in one line and exits with. */
export class CliError extends Error {
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The exit code for a set of runs: the worst of their ends (failed > stopped > paused > completed). */
export function exitForStatuses(statuses: readonly string[]): ExitCode {
  return exitForRuns(statuses.map((status) => ({ status, atBudget: false })));
}

/** How a run ended, for its exit code: its status, and whether it was stopped at a budget cap. */
export type RunEnd = { status: string; atBudget: boolean };

/**
 * The worst of the runs' ends: failed > stopped (other than at a budget) > stopped at a budget > paused
 * > completed, so a script tells a cap that held from a person's stop.
 */
export function exitForRuns(ends: readonly RunEnd[]): ExitCode {
  if (ends.some((e) => e.status === 'failed')) return EXIT.failed;
  if (ends.some((e) => e.status === 'stopped' && !e.atBudget)) return EXIT.stopped;
  if (ends.some((e) => e.status === 'stopped')) return EXIT.budget;
  if (ends.some((e) => ['paused_for_user_action', 'queued', 'running'].includes(e.status))) return EXIT.paused;
  return EXIT.completed;
}
