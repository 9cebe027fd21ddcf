// A small value kept on disk across restarts (the range's host key and world seed), created on first use.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The contents of `path`, or `create()` written there (mode 600) when the file does not exist yet. */
export function readOrCreate(path: string, create: () => string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const value = create();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, value, { mode: 0o600 });
  return value;
}
