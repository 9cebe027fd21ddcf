// The practice catalogue's version must change when its levels do, or the board would average runs made on
// different levels as one row; and the two targets' sets are named as docs/board.md says.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  levelSetOf,
  levelSetSchema,
  levelSetText,
  PRACTICE_CATALOGUE_FINGERPRINT,
  PRACTICE_CATALOGUE_VERSION,
} from '../../schema/level-sets.ts';
import { PRACTICE_LEVELS } from '../../schema/levels.ts';

describe('level sets', () => {
  it('pins the practice catalogue: a changed level needs a new PRACTICE_CATALOGUE_VERSION', () => {
    const now = createHash('sha256')
      .update(JSON.stringify(PRACTICE_LEVELS.map((l) => [l.level, l.goal])))
      .digest('hex');
    expect(
      now,
      `the practice levels changed: bump PRACTICE_CATALOGUE_VERSION (now ${PRACTICE_CATALOGUE_VERSION}) and set PRACTICE_CATALOGUE_FINGERPRINT to ${now}`,
    ).toBe(PRACTICE_CATALOGUE_FINGERPRINT);
  });

  it('names the practice set by its version and the real server by the day', () => {
    const at = Date.parse('2026-11-24T23:59:59Z');
    expect(levelSetOf('practice', at)).toBe(`practice@${PRACTICE_CATALOGUE_VERSION}`);
    expect(levelSetOf('bandit', at)).toBe('bandit@2026-11-24');
    expect(levelSetOf('bandit', at + 1000)).toBe('bandit@2026-11-25');
    for (const set of [levelSetOf('practice', at), levelSetOf('bandit', at)])
      expect(levelSetSchema.safeParse(set).success).toBe(true);
    expect(levelSetSchema.safeParse('practice@<script>').success).toBe(false);
  });

  it('says each set in words', () => {
    expect(levelSetText('bandit@2026-11-24')).toBe('OverTheWire Bandit as of 2026-11-24');
    expect(levelSetText('practice@2026.11.1')).toBe('practice range, catalogue 2026.11.1');
    expect(levelSetText('practice@unrecorded')).toBe('practice, before level sets were recorded');
  });
});
