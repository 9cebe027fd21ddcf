// wc as GNU coreutils 9.1 counts in the C.UTF-8 locale: a word starts at a printable character that
// is not a space and ends at a space, a tab or a line end; control characters, NUL and bytes that
// are not UTF-8 neither start nor end one (bandit9's data.txt has 59 words, not the 39 just-bash
// counted); -m counts characters, not the invalid bytes; columns as wide as the sum of the files'
// sizes, 7 for a pipe, and no padding for one count of one input.
import { defineCommand } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { describeFsError, parseFlags, stdinBytes } from './command-env.ts';

type Counts = { lines: number; words: number; chars: number; bytes: number; longest: number };

// The spaces glibc's iswspace knows beyond ASCII, and the no-break spaces wc separates words at too.
const UNICODE_SPACES = new Set([
  0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x205f,
  0x3000,
]);
const NO_BREAK_SPACES = new Set([0xa0, 0x2007, 0x202f, 0x2060]);
const NOT_PRINTABLE = /[\p{Cc}\p{Cn}\p{Cs}]/u;
const NO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE: [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x20000, 0x3fffd],
];

/** glibc's iswprint and wcwidth, near enough: -1 for a character that is not printable. */
function width(code: number): number {
  if (code > 0x10ffff) return -1;
  const c = String.fromCodePoint(code);
  if (NOT_PRINTABLE.test(c)) return -1;
  if (NO_WIDTH.test(c)) return 0;
  return WIDE.some(([a, b]) => code >= a && code <= b) ? 2 : 1;
}

function count(data: Uint8Array): Counts {
  const c: Counts = { lines: 0, words: 0, chars: 0, bytes: data.length, longest: 0 };
  let inWord = false;
  let column = 0;
  const separate = () => {
    if (inWord) c.words++;
    inWord = false;
  };
  for (let i = 0; i < data.length; ) {
    const [code, size] = decode(data, i);
    i += size;
    if (code < 0) continue;
    c.chars++;
    if (code === 0x0a || code === 0x0d || code === 0x0c) {
      if (code === 0x0a) c.lines++;
      c.longest = Math.max(c.longest, column);
      column = 0;
      separate();
    } else if (code === 0x09) {
      column += 8 - (column % 8);
      separate();
    } else if (code === 0x20) {
      column++;
      separate();
    } else if (code === 0x0b) separate();
    else {
      const w = width(code);
      if (w < 0) continue;
      column += w;
      if (UNICODE_SPACES.has(code) || NO_BREAK_SPACES.has(code)) separate();
      else inWord = true;
    }
  }
  c.longest = Math.max(c.longest, column);
  if (inWord) c.words++;
  return c;
}

/**
 * One character at `i` as glibc's mbrtowc reads UTF-8: its code point and length, or -1 and 1 for
 * a byte that starts none. glibc takes the old five- and six-byte forms too (up to 0x7fffffff), but
 * not overlong forms or surrogates.
 */
function decode(data: Uint8Array, i: number): [number, number] {
  const b = data[i]!;
  if (b < 0x80) return [b, 1];
  const size = b >= 0xfc && b < 0xfe ? 6 : b >= 0xf8 ? 5 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 0;
  if (size === 0 || i + size > data.length) return [-1, 1];
  let code = b & (0xff >> (size + 1));
  for (let k = 1; k < size; k++) {
    const next = data[i + k]!;
    if ((next & 0xc0) !== 0x80) return [-1, 1];
    code = code * 64 + (next & 0x3f);
  }
  const shortest = [0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000][size]!;
  if (code < shortest || (code >= 0xd800 && code < 0xe000)) return [-1, 1];
  return [code, size];
}

export function wcCommand(env: CommandEnv) {
  const { fs } = env;
  return defineCommand('wc', async (args, ctx) => {
    const { flags, operands } = parseFlags(args);
    for (const f of flags.keys()) {
      if (!['l', 'w', 'c', 'm', 'L', 'lines', 'words', 'bytes', 'chars', 'max-line-length'].includes(f)) {
        return {
          stdout: '',
          stderr: `wc: ${f.length > 1 ? `unrecognized option '--${f}'` : `invalid option -- '${f}'`}\nTry 'wc --help' for more information.\n`,
          exitCode: 1,
        };
      }
    }
    const has = (short: string, long: string) => flags.has(short) || flags.has(long);
    let show = {
      lines: has('l', 'lines'),
      words: has('w', 'words'),
      chars: has('m', 'chars'),
      bytes: has('c', 'bytes'),
      longest: has('L', 'max-line-length'),
    };
    if (!Object.values(show).some(Boolean))
      show = { lines: true, words: true, chars: false, bytes: true, longest: false };
    const inputs = operands.length ? operands : [undefined];
    const results: { name?: string; counts: Counts }[] = [];
    let stderr = '';
    let exitCode = 0;
    let sizes = 0;
    let pipe = false;
    for (const operand of inputs) {
      try {
        if (operand === undefined || operand === '-') {
          pipe = true;
          results.push({ ...(operand ? { name: operand } : {}), counts: count(stdinBytes(ctx.stdin)) });
        } else {
          const data = await fs.readFileBuffer(fs.resolvePath(ctx.cwd, operand));
          sizes += data.length;
          results.push({ name: operand, counts: count(data) });
        }
      } catch (err) {
        stderr += `wc: ${operand}: ${describeFsError(err)}\n`;
        exitCode = 1;
      }
    }
    const shown = (Object.keys(show) as (keyof Counts)[]).filter((k) => show[k]);
    const width = shown.length === 1 && inputs.length === 1 ? 1 : Math.max(pipe ? 7 : 1, String(sizes).length);
    const row = (counts: Counts, name?: string) =>
      `${shown.map((k) => String(counts[k]).padStart(width)).join(' ')}${name === undefined ? '' : ` ${name}`}\n`;
    let stdout = results.map((r) => row(r.counts, r.name)).join('');
    if (inputs.length > 1) {
      const total: Counts = { lines: 0, words: 0, chars: 0, bytes: 0, longest: 0 };
      for (const { counts } of results) {
        for (const k of ['lines', 'words', 'chars', 'bytes'] as const) total[k] += counts[k];
        total.longest = Math.max(total.longest, counts.longest);
      }
      stdout += row(total, 'total');
    }
    return { stdout, stderr, exitCode };
  });
}
