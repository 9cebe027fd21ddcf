// Whose password a pause asks for: the start level's own login at a start above 0, else the next level's.
import { describe, expect, it } from 'vitest';
import { passwordUserOf } from '../../schema/pause-password.ts';

describe('passwordUserOf', () => {
  it("asks a run that starts at level 2 for bandit2's password, not bandit3's", () => {
    expect(passwordUserOf({ reason: 'password_required', level: 2 })).toBe('bandit2');
  });

  it("asks any other pause for the next level's password", () => {
    for (const reason of ['max_retries', 'loop_detected', 'user_requested', 'ssh_error'] as const)
      expect(passwordUserOf({ reason, level: 13 })).toBe('bandit14');
  });
});
