// Whether an SSH login may come in: a Bandit user's password for the world, compared in constant time, or the key
// the world made for that user (level 13's), its signature verified. root never logs in, as on the real server.
import { timingSafeEqual } from 'node:crypto';
import ssh2 from 'ssh2';
import type { AuthContext } from 'ssh2';
import { passwordLevel, userExists } from './world/accounts.ts';
import type { World } from './world/world.ts';

/** Whether the login `ctx` asks for is one the world accepts. */
export function authenticate(ctx: AuthContext, world: World): boolean {
  if (!userExists(ctx.username) || ctx.username === 'root') return false;
  if (ctx.method === 'password') {
    const expected = world.passwords[passwordLevel(ctx.username) ?? -1];
    return expected !== undefined && sameSecret(ctx.password, expected);
  }
  if (ctx.method === 'publickey') {
    const pair = world.keys.get(ctx.username);
    if (!pair || !Buffer.from(ctx.key.data).equals(pair.publicBlob)) return false;
    // Without a signature the client only asks whether this key would do; with one, verify it.
    if (!ctx.signature || !ctx.blob) return true;
    const key = ssh2.utils.parseKey(pair.privateKey);
    const parsed = Array.isArray(key) ? key[0] : key;
    return !!parsed && !(parsed instanceof Error) && parsed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true;
  }
  return false;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
