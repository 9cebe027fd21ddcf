// The range's SSH host key. Kept on disk when a path is given, so a person's known_hosts stays valid
// across restarts; tests use a fresh in-memory key.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ed25519KeyPair } from './world/ssh-key.ts';

/** The PEM/OpenSSH private key at `path`, created on first use; a throwaway key when path is null. */
export function loadHostKey(path: string | null): string {
  if (path) {
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  // Our own OpenSSH encoder: ssh2's generateKeyPairSync now and then emits a key it cannot parse back.
  const key = ed25519KeyPair(randomBytes(32), 'practice-range-host').privateKey;
  if (path) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, key, { mode: 0o600 });
  }
  return key;
}
