// What a run has spent against its caps (issue 31), from the one fold (run-record.ts): the Durable
// Object sends it to the proxy with each advance, and the run page and the CLI show it.
import type { Spent } from './budget.ts';
import type { RunRecord } from './run-record.ts';

/**
 * The run's spent figures at `now` (epoch ms). Wall seconds run from the run's first start to its end
 * (or `now`), less the time it waited for a person, the open pause included.
 */
export function spentOf(record: RunRecord, now: number): Spent {
  let costUsd = 0;
  let tokens = 0;
  let commands = 0;
  let modelCalls = 0;
  for (const f of record.levels.values()) {
    costUsd += f.costUsd;
    tokens += f.promptTokens + f.completionTokens;
    commands += f.commands;
    modelCalls += f.modelCalls;
  }
  const { startedAt, endedAt, pausedMs, pausedSince } = record.place;
  const end = endedAt ?? now;
  const waiting = pausedMs + (pausedSince === null ? 0 : Math.max(0, end - pausedSince));
  const wallMs = startedAt === null ? 0 : Math.max(0, end - startedAt - waiting);
  // Not rounded: the proxy checks caps against it, and a rounded-down sum could let a cap be passed by a hair.
  return { costUsd, tokens, commands, modelCalls, wallSeconds: wallMs / 1000 };
}
