// A run's caps within one proxy call: what the run had spent when the call began (the Durable Object's
// figures), plus what this call has spent since, judged before each model request and each command, so
// no step that could cross a cap is taken. See docs/providers.md#caps-as-the-proxy-enforces-them.
import type { AdvanceSpend, BudgetBreach, Spent } from '../../schema/budget.ts';
import { breachText, NOTHING_SPENT } from '../../schema/budget.ts';
import type { BudgetStop, CallBudget, CallReport } from '../models/agent-model.ts';
import type { WorstCase } from '../models/worst-case.ts';

/** The spend guard of one call; a call without `spend` has no caps, and every step is admitted. */
export class SpendGuard implements CallBudget {
  private readonly spend: AdvanceSpend | null;
  private readonly now: () => number;
  private readonly startedAt: number;
  /** What this call has spent (its wall time is the clock's). */
  private readonly call = { costUsd: 0, tokens: 0, commands: 0, modelCalls: 0 };
  private needUsd: number | null = null;
  /** A run with caps, or in a capped batch: its requests carry an answer limit so each has a worst case. */
  readonly bounded: boolean;

  constructor(spend: AdvanceSpend | undefined, now: () => number = Date.now) {
    this.spend = spend ?? null;
    this.bounded = this.spend !== null;
    this.now = now;
    this.startedAt = now();
  }

  /** Told of each model request made (failed ones too): its tokens, its cost, one model call. */
  count(report: CallReport): void {
    this.call.costUsd += report.costUsd ?? 0;
    this.call.tokens += report.promptTokens + report.completionTokens;
    this.call.modelCalls += 1;
  }

  /** The run's figures now: the call's start plus what the call has spent. */
  spent(): Spent {
    const start = this.spend?.spent ?? NOTHING_SPENT;
    return {
      costUsd: start.costUsd + this.call.costUsd,
      tokens: start.tokens + this.call.tokens,
      commands: start.commands + this.call.commands,
      modelCalls: start.modelCalls + this.call.modelCalls,
      wallSeconds: start.wallSeconds + Math.max(0, this.now() - this.startedAt) / 1000,
    };
  }

  /**
   * Before a model request with this worst case: null sends it; a breach pauses the run; for a run of a
   * capped batch, a need beyond this call's allowance yields for more (or pauses, when the allowance is all
   * the batch has left).
   */
  admit(worst: WorstCase): BudgetStop | null {
    if (!this.spend) return null;
    const { caps, batch } = this.spend;
    const spent = this.spent();
    const unpriced = worst.costUsd === null;
    if (caps.maxCostUsd !== undefined) {
      if (unpriced) return unpricedStop('maxCostUsd', spent.costUsd, caps.maxCostUsd);
      const stop = crossing('maxCostUsd', spent.costUsd, worst.costUsd ?? 0, caps.maxCostUsd);
      if (stop) return stop;
    }
    const stop =
      crossing('maxTokens', spent.tokens, worst.tokens, caps.maxTokens) ??
      crossing('maxModelCalls', spent.modelCalls, 1, caps.maxModelCalls);
    if (stop) return stop;
    if (!batch) return null;
    const batchSpent = batch.spentUsd + this.call.costUsd;
    if (unpriced) return unpricedStop('batchMaxCostUsd', batchSpent, batch.maxCostUsd);
    const need = worst.costUsd ?? 0;
    const left = batch.allowanceUsd - this.call.costUsd;
    if (need <= left) return null;
    if (batch.exhaustive)
      return breachStop({ cap: 'batchMaxCostUsd', spent: batchSpent, limit: batch.maxCostUsd, next: need });
    const message = `the next model call could cost $${need.toFixed(6)}, more than the $${Math.max(0, left).toFixed(6)} left of this call's share of the batch's cap; asking the batch for more`;
    this.needUsd = need;
    return { kind: 'yield', needUsd: need, message };
  }

  /** The dollars a model call asked the batch for, more than this call was given; null when none did. */
  get allowanceNeededUsd(): number | null {
    return this.needUsd;
  }

  /** Before a command: null runs it (and counts it); a breach of the command or time cap pauses the run. */
  admitCommand(): BreachStop | null {
    if (this.spend) {
      const { caps } = this.spend;
      const spent = this.spent();
      const stop = crossing('maxCommands', spent.commands, 1, caps.maxCommands);
      if (stop) return stop;
      // A command's time is not known before it runs: once the cap is reached, no command starts.
      if (caps.maxWallSeconds !== undefined && spent.wallSeconds >= caps.maxWallSeconds) {
        const { wallSeconds } = spent;
        return breachStop({ cap: 'maxWallSeconds', spent: wallSeconds, limit: caps.maxWallSeconds, next: 0 });
      }
    }
    this.call.commands += 1;
    return null;
  }
}

/** A stop that pauses the run, naming the cap. */
export type BreachStop = Extract<BudgetStop, { kind: 'breach' }>;

function breachStop(breach: BudgetBreach): BreachStop {
  return { kind: 'breach', breach, message: breachText(breach) };
}

/** A breach when `spent + next` would cross `limit` (reaching it exactly is allowed); null when there is no cap. */
function crossing(cap: BudgetBreach['cap'], spent: number, next: number, limit: number | undefined): BreachStop | null {
  if (limit === undefined || spent + next <= limit) return null;
  return breachStop({ cap, spent, limit, next });
}

/** A cost cap on a model with no price cannot be kept: the worker refuses it at the door; here the run pauses. */
function unpricedStop(cap: 'maxCostUsd' | 'batchMaxCostUsd', spent: number, limit: number): BreachStop {
  const breach = { cap, spent, limit, next: 0 };
  const message = `the ${cap === 'maxCostUsd' ? "run's" : "batch's"} cost cap cannot be kept: the model has no price, so the most its next call could cost is unknown; stop the run, or give the model a price in the proxy's providers file (docs/providers.md), restart the proxy, and raise the cap to go on`;
  return { kind: 'breach', breach, message };
}
