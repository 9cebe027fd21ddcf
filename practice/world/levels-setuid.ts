// Levels 18→19 … 20→21: a login that throws you out, and setuid helpers that act as another user
// (level 26's bandit27-do is the same helper as bandit20-do).
import { elfExecutable } from './elf-image.ts';
import type { LevelBuilder } from './world.ts';

export function buildSetuidLevels(b: LevelBuilder): void {
  // 18 → 19: the password is in readme, but .bashrc logs an interactive login straight out.
  b.file('/home/bandit18/readme', `${b.pass(19)}\n`, 'bandit19', 'bandit18', 0o640);
  b.file(
    '/home/bandit18/.bashrc',
    '# ~/.bashrc: executed by bash(1) for non-login shells.\n\n# If not running interactively, don\'t do anything\ncase $- in\n    *i*) ;;\n      *) return;;\nesac\n\n# Interactive logins end here.\necho "Byebye !"\nexit 0\n',
    'bandit19',
    'bandit18',
    0o640,
  );

  // 19 → 20: run a command as bandit20.
  b.file('/home/bandit19/bandit20-do', elfExecutable('bandit20-do'), 'bandit20', 'bandit19', 0o4750, 'run-as');

  // 20 → 21: connects to a port you listen on, and sends the next password for the current one.
  b.file('/home/bandit20/suconnect', elfExecutable('suconnect'), 'bandit21', 'bandit20', 0o4750, 'suconnect');
}
