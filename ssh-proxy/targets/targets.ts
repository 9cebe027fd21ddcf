// The two targets: the local practice range and the real OverTheWire Bandit.
import { PRACTICE_LEVELS } from '../../practice/catalogue.ts';
import type { Target as TargetName } from '../../schema/run.ts';
import { BANDIT_EXTRA_GOALS } from './bandit-levels.ts';
import type { GameTarget } from './target.ts';

export type TargetEndpoints = Record<TargetName, { host: string; port: number }>;

const sharedGoal = (level: number): string | undefined => PRACTICE_LEVELS.find((l) => l.level === level)?.goal;

export function createTargets(endpoints: TargetEndpoints): Record<TargetName, GameTarget> {
  return {
    practice: {
      name: 'practice',
      ...endpoints.practice,
      lastLevel: PRACTICE_LEVELS.length - 1,
      goal: (level) => sharedGoal(level) ?? `Level ${level} is not part of the practice range.`,
      username: (level) => `bandit${level}`,
    },
    bandit: {
      name: 'bandit',
      ...endpoints.bandit,
      // Bandit's level 33 is the end; there is no bandit34 password to find.
      lastLevel: 32,
      goal: (level) => sharedGoal(level) ?? BANDIT_EXTRA_GOALS[level] ?? `Level ${level} has no known goal.`,
      username: (level) => `bandit${level}`,
    },
  };
}
