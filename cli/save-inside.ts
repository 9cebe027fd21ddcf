// Writes a downloaded file only inside the directory the person named, under a name the CLI built
// itself: a server's filename is never used, and a symlink planted at the name is replaced, not followed.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { CliError, EXIT } from './exit-codes.ts';

/** A file name the CLI builds: letters, digits, `_`, `-` and `.`, no leading dot, nothing else. */
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$/;

/**
 * Writes `bytes` to `dir/name` and returns the path. The file is first written to a fresh temporary
 * name opened with O_EXCL (which refuses an existing file or symlink), then renamed over `name`, so a
 * symlink already at `name` is replaced rather than written through.
 */
export function saveInside(dir: string, name: string, bytes: Uint8Array): string {
  if (!SAFE_NAME.test(name) || basename(name) !== name)
    throw new CliError(`refusing to save under "${name}": not a plain file name`, EXIT.failed);
  mkdirSync(dir, { recursive: true });
  const root = realpathSync(dir);
  const path = join(root, name);
  if (!path.startsWith(root + sep)) throw new CliError(`refusing to save "${name}" outside ${root}`, EXIT.failed);
  const part = join(root, `.${name}.${randomBytes(6).toString('hex')}.part`);
  const fd = openSync(part, 'wx', 0o644);
  try {
    writeSync(fd, bytes);
  } catch (err) {
    closeSync(fd);
    rmSync(part, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(part, path);
  return path;
}
