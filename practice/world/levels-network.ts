// Levels 13→14 … 16→17: a private key instead of a password, and services on local ports reached
// with nc, openssl s_client and a port scan.
import { ed25519KeyPair } from './ssh-key.ts';
import type { LevelBuilder } from './world.ts';

export const SUBMIT_PORT = 30000;
export const SSL_SUBMIT_PORT = 30001;
export const SCAN_RANGE = [31000, 32000] as const;

const WRONG = 'Wrong! Please enter the correct current password.\n';

export function buildNetworkLevels(b: LevelBuilder): void {
  // 13 → 14: a private key that logs in as bandit14.
  const key14 = ed25519KeyPair(b.rng.bytes(32), 'bandit14@practice');
  b.key('bandit14', key14);
  b.file('/home/bandit13/sshkey.private', key14.privateKey, 'bandit14', 'bandit13', 0o640);

  // 14 → 15: submit the current password to port 30000.
  b.service({
    port: SUBMIT_PORT,
    tls: false,
    answer: (input) => (firstLine(input) === b.pass(14) ? `Correct!\n${b.pass(15)}\n\n` : WRONG),
  });

  // 15 → 16: the same over SSL on 30001.
  b.service({
    port: SSL_SUBMIT_PORT,
    tls: true,
    answer: (input) => (firstLine(input) === b.pass(15) ? `Correct!\n${b.pass(16)}\n\n` : WRONG),
  });

  // 16 → 17: five ports listen in 31000-32000; two speak SSL; one of those answers with a key.
  const key17 = ed25519KeyPair(b.rng.bytes(32), 'bandit17@practice');
  b.key('bandit17', key17);
  const ports = new Set<number>();
  while (ports.size < 5) ports.add(SCAN_RANGE[0] + b.rng.int(SCAN_RANGE[1] - SCAN_RANGE[0]));
  const [answer, sslEcho, ...plain] = b.rng.shuffle([...ports]);
  b.service({
    port: answer!,
    tls: true,
    answer: (input) => (firstLine(input) === b.pass(16) ? `Correct!\n${key17.privateKey}\n` : WRONG),
  });
  b.service({ port: sslEcho!, tls: true, answer: (input) => input });
  for (const port of plain) b.service({ port, tls: false, answer: (input) => input });
}

function firstLine(input: string): string {
  return (input.split('\n')[0] ?? '').trim();
}
