// advance: the next level's password is proven; move to that level with a clean slate, or finish
// the run when the last level asked for is done.
import type { BanditState } from '../bandit-state.ts';
import { levelStart } from '../bandit-state.ts';
import { solvedVerdict } from '../replay-check.ts';
import type { BanditContext } from './bandit-deps.ts';

export function advance(s: BanditState, ctx: BanditContext): Partial<BanditState> {
  const now = ctx.now();
  const level = s.level + 1;
  const levelsSolved = s.levelsSolved + 1;
  const replay = ctx.config.replay;
  if (replay && s.found !== null) {
    const { verdict, detail } = solvedVerdict(replay, s.level, s.found);
    ctx.emit({ type: 'verify_level', level: s.level, verdict, detail, originalRunId: replay.of });
  }
  const durationMs = Math.max(0, Math.round(now - s.levelStartedAt));
  ctx.emit({
    type: 'level_complete',
    level: s.level,
    nextLevel: level,
    commands: s.levelCommands,
    durationMs,
    solvedBy: s.solvedBy ?? 'agent',
  });
  const fresh = { ...levelStart(level, s.found, now), levelsSolved };
  return level > ctx.config.endLevel ? { ...fresh, finished: 'completed' } : fresh;
}
