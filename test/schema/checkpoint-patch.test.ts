// Checkpoint patches: for any two states where the second was built from the first the way the
// graph engine builds it (spreads, lists grown by appending), applying the diff gives the second.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCheckpointPatch, diffCheckpoint } from '../../schema/checkpoint-patch.ts';
import type { Checkpoint } from '../../schema/protocol.ts';

const at = (step: number, state: Record<string, unknown>): Checkpoint => ({
  version: 1,
  step,
  next: 'plan',
  state,
  createdAt: '2026-11-24T00:00:00.000Z',
});
const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.record({ turn: fc.string() }), { maxLength: 4 }),
);

describe('checkpoint patches', () => {
  it('rebuild the next checkpoint from the previous one, sending appended items only', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('history', 'lessons', 'level', 'note', 'tried'), value),
        fc.dictionary(fc.constantFrom('level', 'note', 'extra'), value),
        fc.array(fc.record({ turn: fc.string() }), { maxLength: 3 }),
        fc.constantFrom('level', 'note', 'none'),
        (state, set, added, dropped) => {
          const previous = at(3, state);
          const grown = Array.isArray(state.history) ? { history: [...state.history, ...added] } : {};
          const nextState: Record<string, unknown> = { ...state, ...set, ...grown };
          delete nextState[dropped];
          const next = at(4, nextState);
          const patch = diffCheckpoint(previous, next);
          expect(applyCheckpointPatch(previous, patch)).toEqual(next);
          if (Array.isArray(state.history) && added.length > 0) expect(patch.append.history).toEqual(added);
        },
      ),
    );
  });

  it('refuses a patch made against another step', () => {
    const patch = diffCheckpoint(at(3, { a: 1 }), at(4, { a: 2 }));
    expect(() => applyCheckpointPatch(at(7, { a: 1 }), patch)).toThrow(/for step 3 cannot apply to step 7/);
  });
});
