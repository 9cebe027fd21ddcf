// Replay-verify: how a verification run re-plays the original's solving commands at a level, and its
// verdict. The commands run as the original ran them; every password-shaped token their output shows
// (as it is, and as the baseline would decode it) is a candidate, and the one whose sha256 is the
// original's is submitted first. A login proves it either way.
import { createHash } from 'node:crypto';
import type { VerifyVerdict } from '../../schema/protocol.ts';
import type { ReplayLevel, ReplayPlan } from '../../schema/run.ts';
import { LEVEL_PASSWORD_PLACEHOLDER } from '../../schema/run.ts';
import { decodedReadings } from '../models/baseline/decoders.ts';
import type { ModelDecision, PlanInput } from '../models/agent-model.ts';
import { passwordShapedTokens } from '../targets/target.ts';
import type { BanditState, Turn } from './bandit-state.ts';

type CommandTurn = Extract<Turn, { kind: 'command' }>;

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

const commandTurns = (history: readonly Turn[]): CommandTurn[] =>
  history.filter((t): t is CommandTurn => t.kind === 'command');

/** The original's plan for `level`, if it solved it. */
export const planFor = (plan: ReplayPlan, level: number): ReplayLevel | undefined =>
  plan.levels.find((l) => l.level === level);

/** The first command whose exit code differs from the original's: a new error. */
function newError(level: ReplayLevel, history: readonly Turn[]): string | null {
  const turns = commandTurns(history);
  for (const [i, turn] of turns.entries()) {
    const want = level.commands[i]?.exitCode;
    if (want !== undefined && turn.exitCode !== want)
      return `\`${turn.command}\` exited ${turn.exitCode ?? 'without a code'}; in the original it exited ${want ?? 'without a code'}`;
  }
  return null;
}

/** Every candidate the outputs show, the original's password (by hash) first. */
export function candidates(level: ReplayLevel, history: readonly Turn[]): string[] {
  const tokens = commandTurns(history).flatMap((t) => [
    ...passwordShapedTokens(t.output),
    ...decodedReadings(t.output).flatMap(passwordShapedTokens),
  ]);
  const unique = [...new Set(tokens)];
  return [
    ...unique.filter((t) => sha256Hex(t) === level.passwordSha256),
    ...unique.filter((t) => sha256Hex(t) !== level.passwordSha256),
  ];
}

/** The next move of a verification run: the original's next command, then its password. */
export function replayDecision(plan: ReplayPlan, input: PlanInput): ModelDecision {
  const callId = `replay_${input.level}_${input.history.length + 1}`;
  const level = planFor(plan, input.level);
  if (!level)
    return { kind: 'give_up', thinking: `The original run did not solve level ${input.level}; nothing to replay.` };
  const error = newError(level, input.history);
  if (error) return { kind: 'give_up', thinking: `A new error: ${error}. Stopping here.` };
  const done = commandTurns(input.history).length;
  const next = level.commands[done];
  if (next) {
    const command = next.command.split(LEVEL_PASSWORD_PLACEHOLDER).join(input.currentPassword);
    return {
      kind: 'run_command',
      callId,
      thinking: `Replaying command ${done + 1} of ${level.commands.length}.`,
      command,
    };
  }
  const refused = new Set(input.tried);
  const candidate = candidates(level, input.history).find((t) => !refused.has(t));
  if (!candidate) return { kind: 'give_up', thinking: 'The replayed commands printed no password that logs in.' };
  const same = sha256Hex(candidate) === level.passwordSha256;
  return {
    kind: 'submit_password',
    callId,
    thinking: same
      ? 'The output shows the original password again; proving it.'
      : 'The original password is gone; proving the new candidate.',
    password: candidate,
  };
}

/** The verdict on a level the verification could not solve. */
export function failedVerdict(plan: ReplayPlan, s: BanditState): { verdict: VerifyVerdict; detail: string } {
  const level = planFor(plan, s.level);
  if (!level) return { verdict: 'failed', detail: `the original run did not solve level ${s.level}` };
  const error = newError(level, s.history);
  if (error) return { verdict: 'drifted', detail: `a new error: ${error}` };
  const tried = s.history.filter((t) => t.kind === 'submission').length;
  return {
    verdict: 'failed',
    detail: tried
      ? `${tried} candidate(s) from the replayed output did not log in as the next level`
      : 'the replayed commands printed no password-shaped text',
  };
}

/** The verdict on a level the verification solved with `password`. */
export function solvedVerdict(
  plan: ReplayPlan,
  level: number,
  password: string,
): { verdict: VerifyVerdict; detail: string } {
  const original = planFor(plan, level);
  if (original && sha256Hex(password) === original.passwordSha256) {
    return {
      verdict: 'reproduced',
      detail: `the same ${original.commands.length} command(s) gave the same password, proven by a login`,
    };
  }
  return {
    verdict: 'drifted',
    detail: 'a different password than the original found, proven by a login (the target has changed)',
  };
}
