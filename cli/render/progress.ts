// The live progress display of `run`: one line per run (model, level, solved, commands, tokens,
// cost, status), redrawn in place on a terminal with log-update; elsewhere only changes are printed.
import { createLogUpdate } from 'log-update';
import { OUTCOME_TEXT } from '../../schema/level-outcome.ts';
import { levelResults, runTotals } from '../../schema/run-record.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';
import type { Colors } from './colors.ts';
import { safe } from './event-line.ts';

export type Row = { runId: string; model: string; view: RunViewState };

const commands = (view: RunViewState): number => runTotals(view.record).commands;

/** How each level the run touched ended, e.g. `L0 alone, L1 alone, L2 hint`, from the one fold. */
export function outcomesText(view: RunViewState): string {
  return levelResults(view.record)
    .map((l) => `L${l.level} ${OUTCOME_TEXT[l.outcome].label}`)
    .join(', ');
}

const STATUS_COLOR: Record<string, keyof Colors> = {
  completed: 'green',
  failed: 'red',
  stopped: 'yellow',
  paused_for_user_action: 'magenta',
  running: 'cyan',
  queued: 'dim',
};

export function rowText(row: Row, c: Colors): string {
  const { view } = row;
  const status = view.run?.status ?? 'connecting';
  const paint = (c[STATUS_COLOR[status] ?? 'white'] as (s: string) => string) ?? ((s: string) => s);
  const place = status === 'queued' && view.queuePosition !== null ? ` #${view.queuePosition}` : '';
  const cost = view.costUsd === 0 ? '$0' : `$${view.costUsd.toFixed(4)}`;
  return [
    row.runId.slice(-10).padEnd(10),
    safe(row.model).padEnd(18).slice(0, 18),
    `L${view.currentLevel}`.padEnd(4),
    `${view.solved.length} solved`.padEnd(10),
    `${commands(view)} cmds`.padEnd(9),
    `${(view.promptTokens + view.completionTokens).toLocaleString('en-US')} tok`.padEnd(12),
    cost.padEnd(9),
    paint(`${status.replaceAll('_', ' ')}${place}`),
  ].join(' ');
}

/** Redraws every row in place (a TTY) or prints a row when its status or level changed (not a TTY). */
export class ProgressDisplay {
  private readonly rows = new Map<string, Row>();
  private readonly printed = new Map<string, string>();
  private readonly live: boolean;
  private readonly c: Colors;
  private readonly out: NodeJS.WriteStream;
  private readonly draw: ReturnType<typeof createLogUpdate>;

  constructor(out: NodeJS.WriteStream, c: Colors) {
    this.out = out;
    this.c = c;
    this.live = Boolean(out.isTTY);
    this.draw = createLogUpdate(out, { showCursor: true });
  }

  update(row: Row): void {
    this.rows.set(row.runId, row);
    if (this.live) return this.draw([...this.rows.values()].map((r) => rowText(r, this.c)).join('\n'));
    const key = `${row.view.run?.status}:${row.view.currentLevel}:${row.view.solved.length}`;
    if (this.printed.get(row.runId) === key) return;
    this.printed.set(row.runId, key);
    this.out.write(`${rowText(row, this.c)}\n`);
  }

  /** Leaves the current lines on screen, so a prompt or the summary can follow them. */
  hold(): void {
    if (this.live) this.draw.done();
  }
}
