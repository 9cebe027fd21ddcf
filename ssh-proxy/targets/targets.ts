// The two targets: the local practice range and the real OverTheWire Bandit. Their levels and
// goals come from the one catalogue in schema/levels.ts; this adds where each one listens.
import type { Target as TargetName } from '../../schema/levels.ts';
import { levelGoal, TARGET_LEVELS } from '../../schema/levels.ts';
import type { GameTarget } from './target.ts';

export type TargetEndpoints = Record<TargetName, { host: string; port: number }>;

export function createTargets(endpoints: TargetEndpoints): Record<TargetName, GameTarget> {
  const target = (name: TargetName): GameTarget => ({
    name,
    ...endpoints[name],
    lastLevel: TARGET_LEVELS[name].lastLevel,
    goal: (level) => levelGoal(name, level),
    username: (level) => `bandit${level}`,
  });
  return { practice: target('practice'), bandit: target('bandit') };
}
