// The environment a run's SSH channel sends on the practice range: PRACTICE_WORLD=<key> for a run in a private
// world (schema/worlds.ts), nothing for the shared world; PRACTICE_PLAYER=<run id>, so the range gives the run its
// own turn among the commands it waits for. The range reads both before the channel's exec or shell.
import { PRACTICE_PLAYER_ENV, PRACTICE_WORLD_ENV } from '../../schema/worlds.ts';

/** ssh2's `env` option for a channel in `world` (a private world's key) playing for `player` (a run id). */
export function worldEnv(world: string | undefined, player?: string): Record<string, string> {
  return {
    ...(world === undefined ? {} : { [PRACTICE_WORLD_ENV]: world }),
    ...(player === undefined ? {} : { [PRACTICE_PLAYER_ENV]: player }),
  };
}
