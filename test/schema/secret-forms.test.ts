// The forms of a secret a shell or a model makes (base64 at any alignment, hex, reversed, spaced,
// URL-encoded, line-wrapped) are all replaced, in plain text and in JSON text; ordinary text is not.
import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSecretForms, replaceSecretForms } from '../../schema/secret-forms.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { redact, secretsOf } from '../../worker/artifacts/redact.ts';

const PW = 'Xk3pQz9LmN2vBt7RwY5sHc1dFg8jKa4e';
const P = '[redacted]';
const forms = (json: boolean, value = PW) => compileSecretForms([{ value, placeholder: P }], { json });
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const wrap = (s: string, width: number) => (s.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join('\n');

/** Each transform as a shell or model would print it; the secret must not survive any of them. */
const transforms: Record<string, (s: string) => string> = {
  exact: (s) => s,
  'base64 (echo | base64)': (s) => b64(`${s}\n`),
  'base64 url-safe, no padding': (s) => Buffer.from(s).toString('base64url'),
  'base64 inside a blob, offset 1': (s) => b64(`x${s}yz`),
  'base64 inside a blob, offset 2': (s) => b64(`xy${s}`),
  'base64 wrapped at 76': (s) => wrap(b64(s.repeat(3)), 76),
  'hex lower (xxd -p)': (s) => wrap(Buffer.from(`${s}\n`).toString('hex'), 60),
  'hex upper': (s) => Buffer.from(s).toString('hex').toUpperCase(),
  reversed: (s) => [...s].reverse().join(''),
  spaced: (s) => [...s].join(' '),
  'od -c style (three spaces)': (s) => [...s].join('   '),
  'one per line': (s) => [...s].join('\n'),
  dashed: (s) => [...s].join('-'),
  'URL-encoded': (s) => encodeURIComponent(s),
  'every byte percent-encoded': (s) => Buffer.from(s).toString('hex').replace(/(..)/g, '%$1').toUpperCase(),
};

describe('secret forms', () => {
  for (const [name, transform] of Object.entries(transforms)) {
    it(`replaces the ${name} form in plain and JSON text`, () => {
      const text = `before ${transform(PW)} after`;
      const plain = replaceSecretForms(text, forms(false));
      const json = replaceSecretForms(JSON.stringify({ stdout: text }), forms(true));
      for (const out of [plain, JSON.parse(json).stdout as string]) {
        expect(out).toContain(P);
        expect(out).toMatch(/^before [\s\S]* after$/);
        // Nothing of the secret's transform is left: a 12-character piece of it would be.
        const shown = transform(PW).replace(/\s/g, '');
        for (let i = 0; i + 12 <= shown.length; i += 4)
          expect(out.replace(/\s/g, '')).not.toContain(shown.slice(i, i + 12));
      }
    });
  }

  it('keeps a URL-encoded secret with reserved characters and a JSON-escaped one out', () => {
    const secret = 'p@ss "word"/&?=x';
    expect(replaceSecretForms(`?q=${encodeURIComponent(secret)}&next`, forms(false, secret))).toBe(`?q=${P}&next`);
    expect(replaceSecretForms(JSON.stringify({ a: [...secret].reverse().join('') }), forms(true, secret))).toBe(
      `{"a":"${P}"}`,
    );
  });

  it('leaves ordinary text alone', () => {
    const text = 'total 24\n-rw-r----- 1 bandit5 bandit5 1033 Nov 22 .file2\nX k 3 p Q z and 58 6b 33';
    expect(replaceSecretForms(text, forms(false))).toBe(text);
    expect(replaceSecretForms(JSON.stringify(text), forms(true))).toBe(JSON.stringify(text));
  });

  it('gives each secret its own placeholder, the longer secret first', () => {
    const compiled = compileSecretForms(
      [
        { value: 'abcdefgh', placeholder: '[A]' },
        { value: 'xxabcdefghyy', placeholder: '[B]' },
      ],
      { json: false },
    );
    expect(replaceSecretForms(`xxabcdefghyy abcdefgh ${b64('abcdefgh')}`, compiled)).toBe('[B] [A] [A]');
  });

  it('is the one definition the archive uses too: its placeholders replace every form, raw and in JSON', () => {
    const secrets = [
      { value: PW, redaction: { placeholder: '[REDACTED:bandit5-password]', kind: 'password' as const, level: 5 } },
    ];
    const text = `${b64(`${PW}\n`)}\n${[...PW].reverse().join('')}\n${JSON.stringify([...PW].join(' '))}`;
    expect(
      redact(text, secrets)
        .split('\n')
        .map((l) => l.replace(/^"|[A-Za-z0-9=]{0,3}"?$/g, '')),
    ).toEqual(Array(3).fill('[REDACTED:bandit5-password]'));
  });

  it('property: no transform of any printable secret survives, in any surrounding text', () => {
    const secret = fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#%&*=?@^~'),
      minLength: 8,
      maxLength: 40,
    });
    const around = fc.string({ maxLength: 30 });
    fc.assert(
      fc.property(secret, around, around, fc.constantFrom(...Object.keys(transforms)), (value, before, after, name) => {
        const shown = transforms[name]!(value);
        const text = `${before}\u0001${shown}\u0001${after}`;
        const out = replaceSecretForms(text, forms(false, value));
        expect(out.replace(/\s/g, '')).not.toContain(value);
        expect(out.includes(shown)).toBe(false);
        const json = JSON.parse(replaceSecretForms(JSON.stringify(text), forms(true, value))) as string;
        expect(json.includes(shown)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('redacts several private keys (RSA-4096 among them) in one text, each with its own placeholder, wrapped copies too', () => {
    const pem = (type: 'rsa' | 'ed25519', modulusLength = 4096) =>
      generateKeyPairSync(type as 'rsa', {
        modulusLength,
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      }).privateKey;
    const keys = [pem('rsa'), pem('rsa'), pem('rsa', 2048), pem('ed25519'), pem('ed25519')];
    const events = keys.map((stdout, i) => ({
      type: 'output',
      level: 3,
      stdout,
      stderr: '',
      exitCode: 0,
      seq: i + 1,
      at: '2026-01-01T00:00:00.000Z',
    })) as unknown as RunEvent[];
    const secrets = secretsOf(events);
    expect(secrets.map((s) => s.redaction.placeholder)).toEqual(keys.map((_, i) => `[REDACTED:private-key-${i + 1}]`));
    // Each key raw, in JSON, base64-wrapped at 76 (`base64 id_rsa`) and hex-wrapped at 60 (`xxd -p id_rsa`).
    const copies = keys.flatMap((key) => [
      key,
      JSON.stringify(key),
      wrap(b64(key), 76),
      wrap(Buffer.from(key).toString('hex'), 60),
    ]);
    const text = copies.join('\n--\n');
    const started = performance.now();
    const out = redact(text, secrets);
    console.log(
      `redacting ${keys.length} private keys (${text.length} characters, ${copies.length} copies): ${(performance.now() - started).toFixed(1)} ms`,
    );
    for (const [i, key] of keys.entries()) {
      const body = key.split('\n').slice(1, -2).join('');
      for (const piece of [
        body.slice(0, 40),
        body.slice(-40),
        b64(key).slice(100, 140),
        Buffer.from(key).toString('hex').slice(200, 240),
      ])
        expect(out.replace(/\s/g, '')).not.toContain(piece);
      expect(out.split(`[REDACTED:private-key-${i + 1}]`).length - 1, `key ${i + 1}`).toBeGreaterThanOrEqual(4);
    }
    // The same through the archive's JSON path: parsed back, no key left.
    const json = redact(JSON.stringify(events), secrets, { json: true });
    expect((JSON.parse(json) as { stdout: string }[]).map((e) => e.stdout)).toEqual(
      keys.map((_, i) => `[REDACTED:private-key-${i + 1}]\n`),
    );
  });

  it("keeps a long secret's spaced copy out of its pattern, so the pattern stays bounded, yet finds its literal and wrapped forms", () => {
    const long = 'k'.repeat(10) + 'Zq8'.repeat(2_000);
    const compiled = compileSecretForms([{ value: long, placeholder: P }], { json: false });
    expect(compiled.pattern).toBeNull();
    expect(replaceSecretForms(`a ${long} b ${wrap(b64(long), 76)} c`, compiled)).toMatch(
      /^a \[redacted\] b \[redacted\][A-Za-z0-9=]{0,3} c$/,
    );
  });

  it('replaces each of many secrets (past the point where forms are found through an index) with its own placeholder', () => {
    const secrets = Array.from({ length: 120 }, (_, i) => ({
      value: `-----BEGIN PRIVATE KEY-----\n${b64(`key number ${i} `.repeat(12))}\n-----END PRIVATE KEY-----`,
      placeholder: `[K${i}]`,
    }));
    const text = secrets.map(({ value }, i) => (i % 2 ? value : wrap(b64(value), 76))).join('\n');
    const started = performance.now();
    const out = replaceSecretForms(text, compileSecretForms(secrets, { json: false }));
    console.log(
      `${secrets.length} secrets in ${text.length} characters: ${(performance.now() - started).toFixed(1)} ms, compiling included`,
    );
    expect(out.split('\n').map((line) => line.replace(/[A-Za-z0-9=]{0,3}$/, ''))).toEqual(
      secrets.map((s) => s.placeholder),
    );
  });
});
