// The proxy's Redactor: every form of a secret out of a line, and live text held back while its end
// could still become a secret's form (so a stream never sends half a spaced or base64 copy).
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../ssh-proxy/redactor.ts';

const PW = 'Tq8vLz2KpW5mNc3XbR7dYs4gHf6jAe1u';
const KEY = 'sk-key-SENTINEL-0123456789';

describe('Redactor', () => {
  it('replaces base64, hex, reversed, spaced and URL-encoded copies of each secret in a line', () => {
    const redactor = new Redactor([PW, KEY, null, 'abc']);
    const stdout = [
      Buffer.from(`${PW}\n`).toString('base64'),
      Buffer.from(KEY).toString('hex'),
      [...PW].reverse().join(''),
      [...KEY].join(' '),
      encodeURIComponent(KEY),
    ].join('\n');
    const line = redactor.json(JSON.stringify({ type: 'event', event: { type: 'output', stdout } }));
    const shown = (JSON.parse(line) as { event: { stdout: string } }).event.stdout;
    expect(shown.split('\n').map((l) => l.replace(/[A-Za-z0-9=]{0,3}$/, ''))).toEqual(Array(5).fill(REDACTED));
    expect(redactor.text('abc stays')).toBe('abc stays'); // too short to be a secret
  });

  it('takes a secret added later (a typed password) into account', () => {
    const redactor = new Redactor([KEY]);
    expect(redactor.text([...PW].reverse().join(''))).not.toBe(REDACTED);
    redactor.add(PW);
    expect(redactor.text([...PW].reverse().join(''))).toBe(REDACTED);
  });

  it('counts the unfinished start of any form at the end of a text', () => {
    const redactor = new Redactor([PW]);
    expect(redactor.unfinished('thinking about it ')).toBe(0);
    expect(redactor.unfinished(`the word ${PW.slice(0, 5)}`)).toBe(5);
    expect(redactor.unfinished(`spaced: ${[...PW.slice(0, 6)].join(' ')} `)).toBe(12);
    const b64 = Buffer.from(PW).toString('base64');
    expect(redactor.unfinished(`encoded ${b64.slice(0, 10)}`)).toBe(10);
    expect(redactor.unfinished(`reversed ${[...PW].reverse().join('').slice(0, 7)}`)).toBe(7);
  });

  it('holds back the start of a hex or base64 copy broken over lines until the copy is complete', () => {
    const redactor = new Redactor([PW]);
    const hex = Buffer.from(`${PW}\n`).toString('hex');
    const firstLine = `${hex.slice(0, 60)}\n`;
    expect(redactor.unfinished(`xxd -p says\n${firstLine}`)).toBe(firstLine.length);
    const long = PW.repeat(3);
    const b64 = Buffer.from(long).toString('base64');
    const start = `${b64.slice(0, 76)}\n${b64.slice(76, 80)}`;
    expect(new Redactor([long]).unfinished(`base64 says ${start}`)).toBe(start.length);
    expect(redactor.unfinished('two lines of words\nand more\n')).toBe(0);
  });
});
