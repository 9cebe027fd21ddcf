// Debian's asciinema reading a recording, as a person's `asciinema cat` would: the one way the tests
// check that terminal.cast plays.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What `asciinema cat FILE` prints, and how it exited. */
export function asciinemaCatFile(file: string): { status: number | null; stdout: string; stderr: string } {
  // asciinema opens /dev/tty, so it runs in a pseudo-terminal that script(1) gives it.
  const shown = spawnSync('script', ['-qec', `asciinema cat ${file}`, '/dev/null'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: shown.status, stdout: shown.stdout, stderr: shown.stderr };
}

/** `asciinemaCatFile` for a recording held in memory. */
export function asciinemaCat(cast: string): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bandit-runner-cast-'));
  try {
    writeFileSync(join(dir, 'terminal.cast'), cast);
    return asciinemaCatFile(join(dir, 'terminal.cast'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
