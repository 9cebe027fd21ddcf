// PasswordProof on its own, with a fake login oracle: a word split over two chunks is seen, words glued
// to escape sequences are found, the level's own password and repeats are never tried, the first word
// that logs in is reported once, and a flood of words stops at MAX_PROOF_TRIES logins.
import { describe, expect, it } from 'vitest';
import { MAX_PROOF_TRIES, PasswordProof } from '../../ssh-proxy/terminal/password-proof.ts';

const word = (n: number) => `W${String(n).padStart(31, '0')}`;

function proofWith(good: string | null, current = 'C'.repeat(32)) {
  const tried: string[] = [];
  const proved: string[] = [];
  const proof = new PasswordProof(
    current,
    async (w) => {
      tried.push(w);
      return w === good;
    },
    (w) => proved.push(w),
  );
  return { proof, tried, proved };
}

describe('PasswordProof', () => {
  it('sees a word split over two chunks, and one glued to a cursor move', async () => {
    const good = word(7);
    const { proof, tried, proved } = proofWith(good);
    proof.scan(`the password is ${good.slice(0, 13)}`);
    proof.scan(`${good.slice(13)}\r\n$ `);
    proof.scan(`\x1b[2;1H${word(8)}\x1b[K\r\n`);
    await proof.settled();
    expect(tried).toEqual([good]);
    expect(proved).toEqual([good]);
    // Proved once: later words are not tried at all.
    expect(tried).not.toContain(word(8));
  });

  it('finds a word after an escape sequence, never tries the current password or a word twice', async () => {
    const current = word(1);
    const { proof, tried, proved } = proofWith(null, current);
    proof.scan(`${current}\r\n\x1b[7m${word(2)}\x1b[27m\r\n${word(2)} ${word(3)}x ${'A'.repeat(40)}\r\n`);
    await proof.settled();
    expect(tried).toEqual([word(2)]);
    expect(proved).toEqual([]);
    expect(proof.tried).toBe(1);
  });

  it('tries at most MAX_PROOF_TRIES logins per terminal, however many words scroll by', async () => {
    const { proof, tried } = proofWith(null);
    for (let chunk = 0; chunk < 10; chunk++) {
      proof.scan(`${Array.from({ length: 20 }, (_, i) => word(chunk * 20 + i)).join('\r\n')}\r\n`);
    }
    await proof.settled();
    expect(tried).toHaveLength(MAX_PROOF_TRIES);
    expect(proof.tried).toBe(MAX_PROOF_TRIES);
  });
});
