// reflect: an attempt failed. Ask the model what it learned, count the retry, and either start a
// fresh attempt with those lessons or, at maxRetries (or a loop that survived a retry), pause.
import type { AttemptFailure } from '../../../schema/protocol.ts';
import type { Command } from '../../engine/command.ts';
import type { BanditState } from '../bandit-state.ts';
import { budgetStopped } from '../budget-stop.ts';
import { freshAttempt } from '../bandit-state.ts';
import type { BanditContext } from './bandit-deps.ts';
import { planInput, reportCalls } from './bandit-deps.ts';
import { failedVerdict } from '../replay-check.ts';
import { STATE_TEXT_BYTES, stateText } from '../state-text.ts';
import { keepLessons } from './keep-lessons.ts';

/** Commands of each failed attempt the final attempt is shown. */
const TAIL_COMMANDS = 5;

/** Failed attempts whose tails are kept (continue after a pause adds more); the oldest go first. */
const MAX_TAILS = 10;

const FAILURE_WORDS: Record<AttemptFailure, string> = {
  budget_spent: 'the command budget was spent',
  loop_detected: 'the agent repeated the same step',
  wrong_password: 'the submitted passwords were wrong',
  no_progress: 'the agent ran out of ideas',
};

export async function reflect(
  s: BanditState,
  ctx: BanditContext,
): Promise<Partial<BanditState> | Command<BanditState>> {
  const failure = s.failure ?? 'no_progress';
  const replay = ctx.config.replay;
  if (replay) {
    // A verification run stops at its first failed level, with its verdict; there is nothing to retry.
    const { verdict, detail } = failedVerdict(replay, s);
    ctx.emit({ type: 'verify_level', level: s.level, verdict, detail, originalRunId: replay.of });
    return {
      decision: null,
      finished: 'stopped',
      finishNote: `verification stopped at level ${s.level}: ${verdict} (${detail})`,
    };
  }
  const input = { ...planInput(s, ctx), failure: FAILURE_WORDS[failure] };
  const answer = await ctx.model.reflect(input, ctx.signal, ctx.budget);
  const serial = reportCalls(s, ctx, answer.calls);
  if (!answer.ok) {
    if (answer.failure.errorClass === 'aborted') return {};
    if (answer.failure.errorClass === 'budget') return budgetStopped(answer.failure.stop, 'reflect', { serial });
    const message = stateText(answer.failure.message, STATE_TEXT_BYTES.note);
    ctx.emit({ type: 'error', code: `llm_${answer.failure.errorClass}`, message, level: s.level });
    return { serial, fault: { reason: 'llm_error', message, resumeAt: 'reflect' }, lastError: message };
  }
  const learned = answer.value.map((text) => ({
    text: stateText(text, STATE_TEXT_BYTES.note),
    source: 'model' as const,
    level: s.level,
  }));
  const lessons = keepLessons([...s.lessons, ...learned]);
  const retryCount = s.retryCount + 1;
  const { maxRetries } = ctx.config;
  ctx.emit({
    type: 'attempt_failed',
    level: s.level,
    attempt: Math.max(1, s.attempt),
    retryCount,
    maxRetries,
    reason: failure,
    lessons: learned,
  });

  const loopCommand = failure === 'loop_detected' && s.decision?.kind === 'run_command' ? s.decision.command : null;
  const lastError = `attempt ${Math.max(1, s.attempt)} at level ${s.level} failed: ${FAILURE_WORDS[failure]}`;
  const commands = s.history.flatMap((t) => (t.kind === 'command' ? [t.command] : []));
  const attemptTails = [
    ...s.attemptTails,
    { attempt: Math.max(1, s.attempt), commands: commands.slice(-TAIL_COMMANDS) },
  ].slice(-MAX_TAILS);
  const base = { serial, lessons, retryCount, lastLoop: loopCommand, lastError, decision: null, attemptTails };
  if (retryCount >= maxRetries) {
    return {
      ...base,
      fault: {
        reason: 'max_retries',
        message: `no password after ${retryCount} attempts; ${lastError}`,
        resumeAt: 'connect',
      },
    };
  }
  if (loopCommand !== null && loopCommand === s.lastLoop) {
    const message = `the agent keeps repeating \`${loopCommand}\` even after a retry; a hint may break the loop`;
    return { ...base, fault: { reason: 'loop_detected', message, resumeAt: 'connect' } };
  }
  const fresh = freshAttempt(s);
  ctx.emit({
    type: 'level_started',
    level: s.level,
    attempt: fresh.attempt ?? 1,
    retryCount,
    address: `${ctx.target.host}:${ctx.target.port}`,
  });
  return { ...base, ...fresh };
}
