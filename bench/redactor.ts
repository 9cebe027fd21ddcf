// Time to redact one 1 MB event line (JSON, as the proxy sends it) with a typed password, an API key
// and the proxy secret: exact-string replacement (the old Redactor) against every form
// (schema/secret-forms.ts); and the archive's redaction of a log whose outputs printed private keys.
// `node bench/redactor.ts`; `--old <file>` compares a saved old Redactor.
import { generateKeyPairSync } from 'node:crypto';
import type { RunEvent } from '../schema/protocol.ts';
import { Redactor } from '../ssh-proxy/redactor.ts';
import { redact, secretsOf } from '../worker/artifacts/redact.ts';

const secrets = [
  'Xk3pQz9LmN2vBt7RwY5sHc1dFg8jKa4e',
  'sk-proj-SENTINEL-abcdefghijklmnopqrstuvwxyz0123456789',
  'proxy-secret-0123456789abcdef0123456789abcdef',
];
const listing = (
  Array.from({ length: 20_000 }, (_, i) => `-rw-r----- 1 bandit5 bandit5 ${1000 + i} Nov 22 file-${i}.txt`).join('\n') +
  secrets[0]
).slice(-1_000_000);
// A blob of base64 and one of hex: the characters the base64 and hex patterns start with are everywhere.
const random = Buffer.from(Array.from({ length: 750_000 }, (_, i) => (i * 2_654_435_761) >>> 24));
const payloads = {
  'ls -l listing': listing,
  base64: random.toString('base64'),
  hex: random.toString('hex').slice(0, 1_000_000),
};
const eventOf = (stdout: string) =>
  JSON.stringify({
    type: 'event',
    event: { type: 'output', level: 5, stdout: stdout + secrets[0], stderr: '', exitCode: 0 },
  });

type Redacts = { json(text: string): string };
function time(name: string, make: () => Redacts): void {
  for (const [kind, payload] of Object.entries(payloads)) timeOne(`${name}, ${kind}`, make(), eventOf(payload));
}
function timeOne(name: string, redactor: Redacts, event: string): void {
  redactor.json(event); // warm up (compiles the forms)
  const runs = 30;
  const started = performance.now();
  let out = '';
  for (let i = 0; i < runs; i++) out = redactor.json(event);
  const ms = (performance.now() - started) / runs;
  console.log(
    `${name}: ${(event.length / 1e6).toFixed(2)} MB event, ${ms.toFixed(2)} ms per line, secret left: ${out.includes(secrets[0]!)}`,
  );
}

const old = process.argv.indexOf('--old');
if (old > 0) {
  const { Redactor: Old } = (await import(process.argv[old + 1]!)) as { Redactor: new (s: string[]) => Redacts };
  time('exact string only', () => new Old(secrets));
}
time('every form', () => new Redactor(secrets));
const started = performance.now();
new Redactor(secrets).json('{}');
console.log(`compiling the forms of ${secrets.length} secrets: ${(performance.now() - started).toFixed(2)} ms`);

// Private keys an output printed each become a secret of the archive: its cost must not grow with a key's length.
const pem = (type: 'rsa' | 'ed25519', modulusLength = 2048) =>
  generateKeyPairSync(type as 'rsa', {
    modulusLength,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
const keySets: [string, string[]][] = [
  ['one ed25519 key', [pem('ed25519')]],
  ['one RSA-2048 key', [pem('rsa')]],
  ['two RSA-2048 keys', [pem('rsa'), pem('rsa')]],
  ['one RSA-4096 key', [pem('rsa', 4096)]],
  [
    'three RSA-4096 and two ed25519 keys',
    [pem('rsa', 4096), pem('rsa', 4096), pem('rsa', 4096), pem('ed25519'), pem('ed25519')],
  ],
  ['100 ed25519 keys', Array.from({ length: 100 }, () => pem('ed25519'))],
  ['1,000 ed25519 keys (a target printing keys on purpose)', Array.from({ length: 1_000 }, () => pem('ed25519'))],
];
for (const [name, keys] of keySets) {
  const events = keys.map((stdout, i) => ({
    type: 'output',
    level: 1,
    stdout,
    stderr: '',
    exitCode: 0,
    seq: i + 1,
    at: new Date(0).toISOString(),
  })) as unknown as RunEvent[];
  const log = JSON.stringify(events);
  const started = performance.now();
  const out = redact(log, secretsOf(events), { json: true });
  const first = performance.now() - started;
  const again = performance.now();
  redact(log, secretsOf(events), { json: true });
  console.log(
    `archive, ${name}: ${(log.length / 1e3).toFixed(1)} KB log, ${first.toFixed(1)} ms (compiling included), ${(performance.now() - again).toFixed(1)} ms again, key left: ${keys.some((k) => out.includes(k.split('\n')[1]!))}`,
  );
}
