// What a step's events change in the run row: the level being played and the last error. Pure: events
// in, changes out. Levels solved, tokens and cost are the one fold's (schema/run-record.ts), not counted here.
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunPatch } from './run-store.ts';

/** The run-row changes implied by freshly stored events. */
export function effectsOf(events: readonly RunEvent[]): RunPatch {
  const patch: RunPatch = {};
  for (const event of events) {
    switch (event.type) {
      case 'level_started':
        patch.currentLevel = event.level;
        break;
      case 'level_complete':
        patch.currentLevel = event.nextLevel;
        break;
      case 'error':
        patch.lastError = event.message;
        break;
      case 'user_action_required':
        patch.lastError = event.lastError;
        break;
      default:
        break;
    }
  }
  return patch;
}
