// Levels 25→26, 26→27, 32→33 and the end: login shells that are not bash. bandit26's shell pages a
// text with `more` (whose `v` opens vi, whose `:shell` is the way out); bandit32's shell upper-cases
// every line (and `$0` names the shell itself).
import { SHOWTEXT, UPPERSHELL } from './accounts.ts';
import { elfExecutable } from './elf-image.ts';
import { ed25519KeyPair } from './ssh-key.ts';
import type { LevelBuilder } from './world.ts';

/** The banner showtext pages: taller than a small terminal, so that `more` stops and waits. */
export const SHOWTEXT_BANNER = [
  '  _                     _ _ _   ___   __  ',
  ' | |                   | (_) | |__ \\ / /  ',
  ' | |__   __ _ _ __   __| |_| |_   ) / /_  ',
  " | '_ \\ / _` | '_ \\ / _` | | __| / / '_ \\ ",
  ' | |_) | (_| | | | | (_| | | |_ / /| (_) |',
  ' |_.__/ \\__,_|_| |_|\\__,_|_|\\__|____\\___/ ',
  '',
].join('\n');

export const CLOSING_NOTE =
  'Congratulations on solving the last level of this game!\n\nAt this moment, there are no more levels to play in this game. However, we are constantly working\non new levels and will most likely expand this game with more levels soon.\nKeep an eye out for an announcement on our usual communication channels!\nIn the meantime, you could play some of our other wargames.\n\nIf you have an idea for an awesome new level, please let us know!\n';

export function buildEscapeLevels(b: LevelBuilder): void {
  // 25 → 26: a key for bandit26, whose login shell is showtext.
  const key26 = ed25519KeyPair(b.rng.bytes(32), 'bandit26@practice');
  b.key('bandit26', key26);
  b.file('/home/bandit25/bandit26.sshkey', key26.privateKey, 'bandit25', 'bandit25', 0o400);
  b.file(SHOWTEXT, '#!/bin/sh\n\nexport TERM=linux\n\nexec more ~/text.txt\nexit 0\n', 'root', 'root', 0o755);
  b.file('/home/bandit26/text.txt', SHOWTEXT_BANNER, 'bandit26', 'bandit26', 0o640);

  // 26 → 27: once out of the pager, a helper that runs a command as bandit27.
  b.file('/home/bandit26/bandit27-do', elfExecutable('bandit27-do'), 'bandit27', 'bandit26', 0o4750, 'run-as');

  // 32 → 33: the upper-casing shell runs as bandit33.
  b.file(UPPERSHELL, elfExecutable('uppershell'), 'bandit33', 'bandit32', 0o4750, 'uppershell');

  // 33: the end of the game.
  b.file('/home/bandit33/README.txt', CLOSING_NOTE, 'bandit33', 'bandit33', 0o400);
}
