// The environment a run's SSH channel sends: PRACTICE_WORLD=<key> for a run in a private world of the practice
// range (schema/worlds.ts), nothing for the shared world. The range reads it before the channel's exec or shell.
import { PRACTICE_WORLD_ENV } from '../../schema/worlds.ts';

/** ssh2's `env` option for a channel in `world` (a private world's key), or empty for the shared world. */
export function worldEnv(world: string | undefined): Record<string, string> {
  return world === undefined ? {} : { [PRACTICE_WORLD_ENV]: world };
}
