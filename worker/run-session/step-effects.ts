// What a step's events change in the run row and the D1 index. Pure: events in, changes out.
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunPatch } from './run-store.ts';

export type TokenDelta = { prompt: number; completion: number; costUsd: number };

/** The run-row changes and token totals implied by freshly stored events. */
export function effectsOf(events: readonly RunEvent[], levelsSolved: number): { patch: RunPatch; tokens: TokenDelta } {
  const patch: RunPatch = {};
  const tokens: TokenDelta = { prompt: 0, completion: 0, costUsd: 0 };
  let solved = levelsSolved;
  for (const event of events) {
    switch (event.type) {
      case 'level_started':
        patch.currentLevel = event.level;
        break;
      case 'level_complete':
        solved += 1;
        patch.levelsSolved = solved;
        patch.currentLevel = event.nextLevel;
        break;
      case 'error':
        patch.lastError = event.message;
        break;
      case 'user_action_required':
        patch.lastError = event.lastError;
        break;
      case 'llm_call':
        tokens.prompt += event.promptTokens;
        tokens.completion += event.completionTokens;
        tokens.costUsd += event.costUsd ?? 0;
        break;
      default:
        break;
    }
  }
  return { patch, tokens };
}
