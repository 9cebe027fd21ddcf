// The offline model: a deterministic heuristic policy. It submits password-shaped text it has seen
// (decoding it first when it looks encoded), runs commands a person's hint names, follows what the
// goal's wording suggests, then explores. It knows no level's answer, so it gets stuck like a weak model.
import { isLostOutput } from '../../schema/lost-command.ts';
import { BASELINE_MODEL } from '../../schema/run.ts';
import { passwordShapedTokens } from '../targets/target.ts';
import type { Turn } from '../agent/bandit-state.ts';
import type {
  AgentModel,
  CallBudget,
  CallReport,
  FinalInput,
  FinalPlan,
  ModelAnswer,
  ModelDecision,
  PlanInput,
  ReflectInput,
} from './agent-model.ts';
import { FINAL_MAX_COMMANDS } from './agent-model.ts';
import { decodedReadings } from './baseline/decoders.ts';
import type { Candidate } from './baseline/follow-ups.ts';
import { followUps } from './baseline/follow-ups.ts';
import { goalCandidates } from './baseline/goal-rules.ts';
import { thinkFor } from './baseline/think-time.ts';
import { NO_COST } from './worst-case.ts';

/** An output with more candidates than this is a haystack (a file of 1000 passwords), not an answer. */
const MAX_CANDIDATES_PER_OUTPUT = 3;

type CommandTurn = Extract<Turn, { kind: 'command' }>;

/** What a stopped think time answers: the node keeps its state, as for any aborted model call. */
const ABORTED = { errorClass: 'aborted', message: 'the call was cut while the baseline was thinking' } as const;

export class BaselineModel implements AgentModel {
  readonly id = BASELINE_MODEL;
  /** Think time per model call, ms (a run's paceMs); 0 answers at once. */
  private readonly paceMs: number;

  constructor(options: { paceMs?: number } = {}) {
    this.paceMs = options.paceMs ?? 0;
  }

  async plan(
    input: PlanInput,
    signal: AbortSignal,
    live?: (text: string) => void,
    budget?: CallBudget,
  ): Promise<ModelAnswer<ModelDecision>> {
    const stopped = admit(budget);
    if (stopped) return stopped;
    const started = performance.now();
    const value = decide(input);
    const calls = () => [this.report('plan', input, value, started, budget)];
    if (!(await this.think(value.thinking, signal, live))) return { ok: false, failure: ABORTED, calls: calls() };
    return { ok: true, value, calls: calls() };
  }

  async reflect(input: ReflectInput, signal: AbortSignal, budget?: CallBudget): Promise<ModelAnswer<string[]>> {
    const stopped = admit(budget);
    if (stopped) return stopped;
    const started = performance.now();
    const value = lessonsFrom(input);
    const calls = () => [this.report('reflect', input, value, started, budget)];
    if (!(await this.think('', signal))) return { ok: false, failure: ABORTED, calls: calls() };
    return { ok: true, value, calls: calls() };
  }

  /** Off by default for the baseline; when asked, it runs what a hint and the goal suggest once more. */
  async finalAttempt(
    input: FinalInput,
    signal: AbortSignal,
    live?: (text: string) => void,
    budget?: CallBudget,
  ): Promise<ModelAnswer<FinalPlan>> {
    const stopped = admit(budget);
    if (stopped) return stopped;
    const started = performance.now();
    const commands = [
      ...new Set(
        [...hintCandidates(input), ...goalCandidates(input.goal, input.currentPassword)].map((s) => s.command),
      ),
    ].slice(0, FINAL_MAX_COMMANDS);
    const value = { thinking: 'Running what the hints and the goal suggest, one last time.', commands };
    const calls = () => [this.report('final', input, value, started, budget)];
    if (!(await this.think(value.thinking, signal, live))) return { ok: false, failure: ABORTED, calls: calls() };
    return { ok: true, value, calls: calls() };
  }

  /** The run's pace: the thinking written out over paceMs; true at once when there is none. */
  private think(text: string, signal: AbortSignal, live?: (text: string) => void): Promise<boolean> {
    return this.paceMs > 0 ? thinkFor(this.paceMs, text, signal, live) : Promise.resolve(true);
  }

  /** The call as an llm_call reports it (no tokens, no cost), told to the run's budget. */
  private report(
    stage: CallReport['stage'],
    input: PlanInput,
    value: unknown,
    started: number,
    budget: CallBudget | undefined,
  ): CallReport {
    const call: CallReport = {
      stage,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: Math.round(performance.now() - started),
      ttftMs: null,
      costUsd: 0,
      errorClass: null,
      request: { model: this.id, level: input.level, attempt: input.attempt, turns: input.history.length },
      response: value,
    };
    budget?.count(call);
    return call;
  }
}

/** The baseline sends no request, but its call counts against maxModelCalls: asked like any other. */
function admit(budget: CallBudget | undefined): Extract<ModelAnswer<never>, { ok: false }> | null {
  const stop = budget?.admit(NO_COST) ?? null;
  return stop ? { ok: false, failure: { errorClass: 'budget', message: stop.message, stop }, calls: [] } : null;
}

/** The baseline's next move, a pure function of what it has seen. */
export function decide(input: PlanInput): ModelDecision {
  const callId = `call_${input.level}_${input.attempt}_${input.history.length + 1}`;
  const candidate = freshCandidate(input);
  if (candidate)
    return {
      kind: 'submit_password',
      callId,
      thinking: `"${candidate.token}" ${candidate.where}; submitting it.`,
      password: candidate.token,
    };

  const commands = input.history.filter((t): t is CommandTurn => t.kind === 'command');
  // A command whose output was lost with a proxy is run again, as a person would: its answer is still wanted.
  const ran = new Set(commands.filter((t) => !isLostOutput(t.output)).map((t) => t.command));
  const queue: Candidate[] = [
    ...hintCandidates(input),
    ...commands.toReversed().flatMap(followUps),
    ...goalCandidates(input.goal, input.currentPassword),
    ...explorationCandidates(input.attempt),
  ];
  const next = queue.find((candidate) => !ran.has(candidate.command));
  if (next) return { kind: 'run_command', callId, thinking: next.why, command: next.command };
  return {
    kind: 'give_up',
    thinking: 'I have run every command I can think of for this goal without finding a password.',
  };
}

/** The newest password-shaped token not yet refused, from outputs that are not haystacks. */
function freshCandidate(input: PlanInput): { token: string; where: string } | null {
  const refused = new Set([...input.tried, input.currentPassword]);
  for (const turn of input.history.toReversed()) {
    if (turn.kind !== 'command') continue;
    const plain = passwordShapedTokens(turn.output);
    const decoded = decodedReadings(turn.output).flatMap(passwordShapedTokens);
    for (const [tokens, where] of [
      [plain, `appeared in the output of \`${turn.command}\``],
      [decoded, `appeared after decoding the output of \`${turn.command}\``],
    ] as const) {
      const unique = [...new Set(tokens)];
      if (unique.length === 0 || unique.length > MAX_CANDIDATES_PER_OUTPUT) continue;
      const token = unique.find((t) => !refused.has(t));
      if (token) return { token, where };
    }
  }
  return null;
}

/** Commands a person's hint names: `in backticks`, or after "run:" / "try:". */
function hintCandidates(input: PlanInput): Candidate[] {
  return input.lessons
    .filter((l) => l.source === 'user')
    .flatMap((l) => {
      const quoted = [...l.text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
      const said = /\b(?:run|try)\s*:\s*(.+)$/i.exec(l.text)?.[1];
      return [...quoted, ...(quoted.length === 0 && said ? [said] : [])];
    })
    .filter((command) => command.trim())
    .map((command) => ({ command: command.trim(), why: 'A person suggested this command.' }));
}

/** Blind exploration when nothing better is left; later attempts look wider. */
function explorationCandidates(attempt: number): Candidate[] {
  const candidates: Candidate[] = [{ command: 'ls -la', why: 'Looking around the home directory.' }];
  if (attempt >= 2) candidates.push({ command: 'find . -type f', why: 'Listing every file below home.' });
  if (attempt >= 3) candidates.push({ command: 'ls -la /tmp', why: 'Checking /tmp for anything left behind.' });
  return candidates;
}

function lessonsFrom(input: ReflectInput): string[] {
  const commands = input.history.filter((t) => t.kind === 'command').map((t) => t.command);
  const lessons = [
    `The attempt ended (${input.failure}) after: ${commands.slice(0, 6).join('; ') || 'no commands'}${commands.length > 6 ? '; …' : ''}.`,
  ];
  if (input.tried.length) lessons.push(`These candidates did not log in: ${input.tried.slice(-3).join(', ')}.`);
  lessons.push('A different approach is needed; a hint naming a command in `backticks` would help.');
  return lessons;
}
