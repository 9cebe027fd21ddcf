// The range's SSH host key. Kept on disk when a path is given, so a person's known_hosts stays valid
// across restarts; tests use a fresh in-memory key.
import { randomBytes } from 'node:crypto';
import { readOrCreate } from './persisted-file.ts';
import { ed25519KeyPair } from './world/ssh-key.ts';

/** The PEM/OpenSSH private key at `path`, created on first use; a throwaway key when path is null. */
export function loadHostKey(path: string | null): string {
  // Our own OpenSSH encoder: ssh2's generateKeyPairSync now and then emits a key it cannot parse back.
  const create = () => ed25519KeyPair(randomBytes(32), 'practice-range-host').privateKey;
  return path ? readOrCreate(path, create) : create();
}
