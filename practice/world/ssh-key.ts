// Deterministic ed25519 key pairs in OpenSSH's private key format, so that a seed always yields the
// same keys (node:crypto cannot seed its key generator, but an ed25519 key is just 32 bytes).
import { createPrivateKey, createPublicKey } from 'node:crypto';

/** A private key file's text and the public key blob the server compares logins against. */
export type KeyPair = { privateKey: string; publicBlob: Buffer; publicLine: string };

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function sshString(data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data) : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** The key pair for a 32-byte seed, labelled with `comment`. */
export function ed25519KeyPair(seed: Uint8Array, comment: string): KeyPair {
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seed)]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  const publicKey = spki.subarray(spki.length - 32);
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(publicKey)]);
  const check = uint32(seed[0]! * 0x1000000 + seed[1]! * 0x10000 + seed[2]! * 0x100 + seed[3]!);
  let secret = Buffer.concat([
    check,
    check,
    sshString('ssh-ed25519'),
    sshString(publicKey),
    sshString(Buffer.concat([Buffer.from(seed), publicKey])),
    sshString(comment),
  ]);
  const pad: number[] = [];
  for (let i = 1; (secret.length + pad.length) % 8 !== 0; i++) pad.push(i);
  secret = Buffer.concat([secret, Buffer.from(pad)]);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(publicBlob),
    sshString(secret),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return {
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
    publicBlob,
    publicLine: `ssh-ed25519 ${publicBlob.toString('base64')} ${comment}`,
  };
}
