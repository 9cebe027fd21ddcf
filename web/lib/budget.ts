// The run page's reading of a run's caps (issue 31): the caps in force (the config's, then every raise in
// the log, so a raise shows at once in every tab) and each cap's share spent, for the panel and the dialog.
import { RUN_CAPS, SPENT_OF_CAP } from '../../schema/budget.ts';
import type { RunCap, RunCaps, Spent } from '../../schema/budget.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';

/**
 * The caps in force: the summary's (GET /api/runs/:id or the snapshot: raises included) or else the
 * config's, then each raise logged after it; the page replays the log from seq 1, so none is missed.
 */
export function capsInForce(run: RunSummary, events: readonly RunEvent[]): RunCaps {
  let caps: RunCaps = { ...(run.config.caps ?? {}), ...(run.spend?.caps ?? {}) };
  for (const event of events) if (event.type === 'caps_raised') caps = { ...caps, ...event.caps };
  return caps;
}

/** The batch's cost cap in force: the summary's, or the last raise of it in the log. */
export function batchCapInForce(run: RunSummary, events: readonly RunEvent[]): number | null {
  let cap = run.spend?.batch?.maxCostUsd ?? null;
  for (const event of events)
    if (event.type === 'caps_raised' && event.batchMaxCostUsd !== undefined) cap = event.batchMaxCostUsd;
  return cap;
}

/** One row of the budget panel: a cap, its limit, what is spent against it, and the share (0..1). */
export type CapRow = { cap: RunCap; limit: number; spent: number; share: number };

/** The caps set, in RUN_CAPS order, each with what is spent against it. */
export function capRows(caps: RunCaps, spent: Spent): CapRow[] {
  return RUN_CAPS.flatMap((cap) => {
    const limit = caps[cap];
    if (limit === undefined) return [];
    const used = spent[SPENT_OF_CAP[cap]];
    return [{ cap, limit, spent: used, share: Math.min(1, used / limit) }];
  });
}

/** How the forms ask for each cap: its label, and its unit to and from the cap (time in minutes). */
export const CAP_FIELDS: readonly {
  cap: RunCap;
  label: string;
  toCap: (v: number) => number;
  ofCap: (v: number) => number;
}[] = [
  { cap: 'maxCostUsd', label: 'Cost ($)', toCap: (v) => v, ofCap: (v) => v },
  { cap: 'maxTokens', label: 'Tokens', toCap: (v) => v, ofCap: (v) => v },
  {
    cap: 'maxWallSeconds',
    label: 'Minutes',
    toCap: (v) => Math.round(v * 60),
    ofCap: (v) => Number((v / 60).toFixed(2)),
  },
  { cap: 'maxCommands', label: 'Commands', toCap: (v) => v, ofCap: (v) => v },
  { cap: 'maxModelCalls', label: 'Model calls', toCap: (v) => v, ofCap: (v) => v },
];

/** Typed cap fields → the caps candidate (for the schema to check): empty is no cap, text that is not a number is NaN. */
export function capsOfFields(values: Partial<Record<RunCap, string>>): Partial<Record<RunCap, number>> {
  const caps: Partial<Record<RunCap, number>> = {};
  for (const { cap, toCap } of CAP_FIELDS) {
    const text = values[cap]?.trim() ?? '';
    if (text !== '') caps[cap] = toCap(Number(text));
  }
  return caps;
}
