// Which world a run plays in on the practice range (issue 33): the shared one every login sees, as on the real
// server, or a private one of its own, named by a key the proxy sends on every SSH channel (PRACTICE_WORLD).
// One owner for the choice, its defaults, its key and what the board says of it (docs/practice-range.md).
import { z } from 'zod';
import type { Target } from './levels.ts';

/** The world a run plays in: "shared" (every login's, the default for a person) or "private" (its own). */
export const worldSchema = z.enum(['shared', 'private'], {
  error: 'must be "shared" (the world every login shares) or "private" (a world of the run\'s own)',
});
export type World = z.infer<typeof worldSchema>;

/**
 * The SSH environment variable a channel sets to play in a private world; the range's own name for it is
 * practice/world/range-world.ts WORLD_ENV (test/ssh-proxy/private-world.test.ts holds the two together).
 */
export const PRACTICE_WORLD_ENV = 'PRACTICE_WORLD';

/**
 * The SSH environment variable by which the proxy names the run a channel plays for (its id), on the practice
 * range only. Every run behind one proxy comes from the proxy's one address; the range, which trusts that
 * address as it does for private worlds, gives each named run its own turn and caps, as it gives each address
 * (practice/world/range-world.ts PLAYER_ENV is the range's name for it).
 */
export const PRACTICE_PLAYER_ENV = 'PRACTICE_PLAYER';

/**
 * A private world's key: the id of the run that made it (a run id fits the range's key, letters, digits, `-`
 * and `_` up to 64). The worker sets it; a fork keeps its parent's.
 */
export const worldKeySchema = z
  .string()
  .regex(/^run_[0-9a-z]{20,40}$/, 'must be a run id: the run whose private world it is');

/**
 * The world a run plays in when its maker named none: a batch is a benchmark, and its runs must not find what
 * another run left in /tmp, so private on the practice range; a person practising by hand plays in the shared
 * world, as on the real server. The real server has one world only.
 */
export function defaultWorld(target: Target, made: { batch: boolean }): World {
  return target === 'practice' && made.batch ? 'private' : 'shared';
}

/** Why a private world is refused on the real server (it is not ignored: the run would not be what was asked). */
export const PRIVATE_ON_BANDIT =
  'the real Bandit server has one world, shared by every player; a private world exists on the practice range only (drop it, or set target "practice")';

/** Why `world` cannot be played on `target`, or null. */
export function worldProblem(target: Target, world: World | undefined): string | null {
  return target === 'bandit' && world === 'private' ? PRIVATE_ON_BANDIT : null;
}

/** What the board and the run index record of a run's world; "unrecorded" for runs made before worlds were chosen. */
export const recordedWorldSchema = z.enum(['shared', 'private', 'unrecorded']);
export type RecordedWorld = z.infer<typeof recordedWorldSchema>;

/**
 * The world a run's config records. A run made before the choice existed is "unrecorded" on the practice range
 * (it played in whatever the range did then: a copy per connection, later the shared world) and "shared" on the
 * real server, which has never had another.
 */
export function recordedWorld(config: { target: Target; world?: World | undefined }): RecordedWorld {
  return config.world ?? (config.target === 'bandit' ? 'shared' : 'unrecorded');
}

/** The key a run's SSH channels send (PRACTICE_WORLD), or undefined for the shared world. */
export function worldKeyOf(config: { world?: World | undefined; worldKey?: string | undefined }): string | undefined {
  return config.world === 'private' ? config.worldKey : undefined;
}

/** A world in words, for a run's header and a board row's caption. */
export const WORLD_TEXT: Record<RecordedWorld, string> = {
  shared: 'shared world: every login sees what the others leave, as on the real server',
  private: "private world: the run's own copy of the range, which no other login sees",
  unrecorded: 'made before worlds were recorded',
};
