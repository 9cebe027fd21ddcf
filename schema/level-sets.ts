// Which set of levels a run was measured on, so the board never averages runs made on different ones.
// The practice range's levels are defined in this repository: their set is the catalogue's version, bumped
// whenever a level's task changes (test/schema/level-sets.test.ts fails when the catalogue changes and the
// version does not). The real server can change its levels without notice: its set is the day the run was made.
import { z } from 'zod';
import type { Target } from './levels.ts';

/**
 * The practice range's catalogue version. Bump it (and PRACTICE_CATALOGUE_FINGERPRINT) when a level's goal,
 * password route or command list changes: runs before and after then fall into separate board rows.
 */
export const PRACTICE_CATALOGUE_VERSION = '2026.11.1';

/** SHA-256 of the practice levels' numbers and goals (schema/levels.ts PRACTICE_LEVELS) the version names; see the test. */
export const PRACTICE_CATALOGUE_FINGERPRINT = 'd16962470a81134433357af949a321c504f040b7d844ab8e46788e5cd9a8ecb0';

/** A level set's name: `practice@<catalogue version>` or `bandit@<YYYY-MM-DD>` (UTC). */
export const levelSetSchema = z
  .string()
  .regex(/^(practice@[0-9A-Za-z.-]{1,40}|bandit@\d{4}-\d{2}-\d{2})$/, 'must be practice@<version> or bandit@<date>');
export type LevelSet = z.infer<typeof levelSetSchema>;

/** The level set a run on `target` made at `at` (epoch ms) plays. */
export function levelSetOf(target: Target, at: number): LevelSet {
  if (target === 'practice') return `practice@${PRACTICE_CATALOGUE_VERSION}`;
  return `bandit@${new Date(at).toISOString().slice(0, 10)}`;
}

/** What runs made before level sets were recorded count as: their own set per target, never merged with a named one. */
export const unrecordedLevelSet = (target: string): string => `${target}@unrecorded`;

/** SQL for a row's level set, with the runs made before level sets under their own name. */
export const levelSetSql = (column: string, target: string): string =>
  `coalesce(${column}, ${target} || '@unrecorded')`;

/** The level set in words, for a board row's caption. */
export function levelSetText(set: string): string {
  const [target, version] = set.split('@');
  if (version === 'unrecorded') return `${target}, before level sets were recorded`;
  if (target === 'practice') return `practice range, catalogue ${version}`;
  return `OverTheWire Bandit as of ${version}`;
}
