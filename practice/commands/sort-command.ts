// sort as GNU coreutils 9.1 sorts in the C.UTF-8 locale: byte order (so "LRAA…" comes before
// "eKU1…", where just-bash's sort used the locale's dictionary order), keys (-k, -t) with their own
// ordering options, -n -g -h -M -V -f -d -i -b -r, -u, -s, -c/-C, -o, -z, and the last-resort
// comparison of whole lines that makes the order total. Lines are bytes, one character each.
import { defineCommand } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { binary, describeFsError, stdinBytes } from './command-env.ts';
import { compareVersions } from './version-compare.ts';

type Ordering = {
  b: boolean;
  d: boolean;
  f: boolean;
  g: boolean;
  h: boolean;
  i: boolean;
  M: boolean;
  n: boolean;
  r: boolean;
  V: boolean;
};
type Key = Ordering & { startField: number; startChar: number; endField: number; endChar: number; own: boolean };
type SortOptions = {
  global: Ordering;
  keys: Key[];
  separator?: string;
  unique: boolean;
  stable: boolean;
  check: false | 'c' | 'C';
  output?: string;
  zero: boolean;
  files: string[];
};

class UsageError extends Error {}
/** A bad -k: GNU names the field specification and adds no usage hint. */
class KeyError extends Error {}

const noOrdering = (): Ordering => ({
  b: false,
  d: false,
  f: false,
  g: false,
  h: false,
  i: false,
  M: false,
  n: false,
  r: false,
  V: false,
});
const ORDERING_LONG: Record<string, keyof Ordering> = {
  'ignore-leading-blanks': 'b',
  'dictionary-order': 'd',
  'ignore-case': 'f',
  'general-numeric-sort': 'g',
  'human-numeric-sort': 'h',
  'ignore-nonprinting': 'i',
  'month-sort': 'M',
  'numeric-sort': 'n',
  reverse: 'r',
  'version-sort': 'V',
};
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const SUFFIXES = 'KMGTPEZYRQ';
const isBlank = (c: string) => c === ' ' || c === '\t';

export function sortCommand(env: CommandEnv) {
  const { fs } = env;
  return defineCommand('sort', async (args, ctx) => {
    let o: SortOptions;
    try {
      o = parseSortArgs(args);
    } catch (err) {
      const hint = err instanceof KeyError ? '' : "Try 'sort --help' for more information.\n";
      return { stdout: '', stderr: `sort: ${(err as Error).message}\n${hint}`, exitCode: 2 };
    }
    let input = '';
    for (const file of o.files.length ? o.files : ['-']) {
      try {
        const bytes = file === '-' ? stdinBytes(ctx.stdin) : await fs.readFileBuffer(fs.resolvePath(ctx.cwd, file));
        const text = Buffer.from(bytes).toString('latin1');
        input += text && !text.endsWith(o.zero ? '\0' : '\n') ? `${text}${o.zero ? '\0' : '\n'}` : text;
      } catch (err) {
        return { stdout: '', stderr: `sort: cannot read: ${file}: ${describeFsError(err)}\n`, exitCode: 2 };
      }
    }
    const end = o.zero ? '\0' : '\n';
    const lines = input === '' ? [] : input.slice(0, -1).split(end);
    const byKeys = (a: string, b: string) => compareKeys(a, b, o);
    const full = (a: string, b: string) => byKeys(a, b) || (o.stable || o.unique ? 0 : lastResort(a, b, o.global.r));

    if (o.check) {
      for (let i = 1; i < lines.length; i++) {
        const c = full(lines[i - 1]!, lines[i]!);
        if (c > 0 || (o.unique && c === 0)) {
          return {
            stdout: '',
            stderr: o.check === 'c' ? `sort: ${o.files[0] ?? '-'}:${i + 1}: disorder: ${lines[i]}\n` : '',
            exitCode: 1,
          };
        }
      }
      return { stdout: '', stderr: '', exitCode: 0 };
    }
    // Array.prototype.sort is stable, which -s needs.
    const sorted = lines
      .map((line, index) => ({ line, index }))
      .sort((a, b) => full(a.line, b.line) || a.index - b.index)
      .map((x) => x.line);
    const kept = o.unique ? sorted.filter((line, i) => i === 0 || byKeys(sorted[i - 1]!, line) !== 0) : sorted;
    const out = kept.map((line) => `${line}${end}`).join('');
    if (o.output !== undefined) {
      try {
        await fs.writeFile(fs.resolvePath(ctx.cwd, o.output), out, 'binary');
      } catch (err) {
        return { stdout: '', stderr: `sort: open failed: ${o.output}: ${describeFsError(err)}\n`, exitCode: 2 };
      }
      return binary('');
    }
    return binary(out);
  });
}

function parseSortArgs(args: string[]): SortOptions {
  const o: SortOptions = {
    global: noOrdering(),
    keys: [],
    unique: false,
    stable: false,
    check: false,
    zero: false,
    files: [],
  };
  const shortFlag = (f: string) => {
    if ('bdfghiMnrV'.includes(f)) o.global[f as keyof Ordering] = true;
    else if (f === 'u') o.unique = true;
    else if (f === 's') o.stable = true;
    else if (f === 'c' || f === 'C') o.check = f;
    else if (f === 'z') o.zero = true;
    else if (f === 'm') return;
    else if (f === 'R') throw new UsageError('the practice range does not shuffle (-R)');
    else throw new UsageError(`invalid option -- '${f}'`);
  };
  const withValue = (f: string, value: string) => {
    if (f === 'k' || f === 'key') o.keys.push(parseKey(value));
    else if (f === 't' || f === 'field-separator') {
      if (value.length !== 1) throw new UsageError(value === '' ? 'empty tab' : `multi-character tab ‘${value}’`);
      o.separator = value;
    } else if (f === 'o' || f === 'output') o.output = value;
    // Buffer size, temporary directory, parallelism: nothing to tune here.
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      o.files.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      if (ORDERING_LONG[name]) o.global[ORDERING_LONG[name]] = true;
      else if (name === 'unique') o.unique = true;
      else if (name === 'stable') o.stable = true;
      else if (name === 'check') o.check = arg.endsWith('=quiet') || arg.endsWith('=silent') ? 'C' : 'c';
      else if (name === 'zero-terminated') o.zero = true;
      else if (name === 'merge') continue;
      else if (['key', 'field-separator', 'output', 'buffer-size', 'temporary-directory', 'parallel'].includes(name)) {
        const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
        if (value === undefined) throw new UsageError(`option '--${name}' requires an argument`);
        withValue(name, value);
      } else throw new UsageError(`unrecognized option '${arg}'`);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const f = arg[j]!;
        if ('ktoST'.includes(f)) {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          if (value === undefined) throw new UsageError(`option requires an argument -- '${f}'`);
          withValue(f, value);
          break;
        }
        shortFlag(f);
      }
      continue;
    }
    o.files.push(arg);
  }
  for (const key of o.keys) if (!key.own) Object.assign(key, o.global);
  return o;
}

function parseKey(spec: string): Key {
  const m = /^(\d+)(?:\.(\d+))?([bdfghiMnrV]*)(?:,(\d+)(?:\.(\d+))?([bdfghiMnrV]*))?$/.exec(spec);
  if (!m) throw new KeyError(`invalid field specification ‘${spec}’`);
  if (Number(m[1]) === 0) throw new KeyError(`field number is zero: invalid field specification ‘${spec}’`);
  if (m[2] !== undefined && Number(m[2]) === 0)
    throw new KeyError(`character offset is zero: invalid field specification ‘${spec}’`);
  const key: Key = {
    ...noOrdering(),
    startField: Number(m[1]),
    startChar: Number(m[2] ?? 1),
    endField: m[4] ? Number(m[4]) : 0,
    endChar: Number(m[5] ?? 0),
    own: false,
  };
  const opts = `${m[3] ?? ''}${m[6] ?? ''}`;
  for (const c of opts) key[c as keyof Ordering] = true;
  key.own = opts !== '';
  return key;
}

/** The fields of a line: split at the separator, or each starting at the blanks before it. */
function fieldStarts(line: string, separator: string | undefined): number[] {
  const starts = [0];
  if (separator !== undefined) {
    for (let i = 0; i < line.length; i++) if (line[i] === separator) starts.push(i + 1);
    return starts;
  }
  for (let i = 1; i < line.length; i++) if (isBlank(line[i]!) && !isBlank(line[i - 1]!)) starts.push(i);
  return starts;
}

function keyText(line: string, key: Key, separator: string | undefined): string {
  const starts = fieldStarts(line, separator);
  // Where field f - 1 ends (fields are numbered from 0 here): before the next one's separator.
  const fieldEnd = (f: number) => (f < starts.length ? starts[f]! - (separator !== undefined ? 1 : 0) : line.length);
  const skipBlanks = (at: number, limit: number) => {
    while (at < limit && isBlank(line[at]!)) at++;
    return at;
  };
  const sf = key.startField - 1;
  if (sf >= starts.length) return '';
  let start = starts[sf]!;
  if (key.b) start = skipBlanks(start, fieldEnd(sf + 1));
  start = Math.min(start + key.startChar - 1, fieldEnd(sf + 1));
  let end = line.length;
  if (key.endField) {
    const ef = key.endField - 1;
    if (ef < starts.length) {
      if (key.endChar === 0) end = fieldEnd(ef + 1);
      else {
        let at = starts[ef]!;
        if (key.b) at = skipBlanks(at, fieldEnd(ef + 1));
        end = Math.min(at + key.endChar, fieldEnd(ef + 1));
      }
    }
  }
  return end > start ? line.slice(start, end) : '';
}

function compareKeys(a: string, b: string, o: SortOptions): number {
  const keys: Key[] = o.keys.length
    ? o.keys
    : [{ ...o.global, startField: 1, startChar: 1, endField: 0, endChar: 0, own: true }];
  for (const key of keys) {
    const x = o.keys.length ? keyText(a, key, o.separator) : a;
    const y = o.keys.length ? keyText(b, key, o.separator) : b;
    const c = compareWith(x, y, key);
    if (c !== 0) return key.r ? -c : c;
  }
  return 0;
}

function compareWith(a: string, b: string, k: Ordering): number {
  if (k.n) return numeric(a) - numeric(b) || 0;
  if (k.g) return general(a, b);
  if (k.h) return human(a) - human(b) || 0;
  if (k.M) return month(a) - month(b);
  if (k.V) return compareVersions(a, b);
  const clean = (s: string) => {
    let t = k.b ? s.replace(/^[ \t]+/, '') : s;
    if (k.d) t = t.replace(/[^A-Za-z0-9 \t]/g, '');
    else if (k.i) t = t.replace(/[^\x20-\x7e]/g, '');
    return k.f ? t.replace(/[a-z]/g, (c) => c.toUpperCase()) : t;
  };
  return bytewise(clean(a), clean(b));
}

function bytewise(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lastResort(a: string, b: string, reverse: boolean): number {
  const c = bytewise(a, b);
  return reverse ? -c : c;
}

/** The leading number GNU's -n reads (blanks, a sign, digits, a decimal point); none is 0. */
function numeric(s: string): number {
  const m = /^[ \t]*(-?)(\d*)(?:\.(\d*))?/.exec(s)!;
  const value = Number(`${m[2] || '0'}.${m[3] || '0'}`);
  return m[1] ? -value : value;
}

/** -h: the suffix's order decides first, then the number. */
function human(s: string): number {
  const m = /^[ \t]*(-?)(\d*(?:\.\d*)?)([KMGTPEZYRQk]?)/.exec(s)!;
  const value = Number(m[2] || '0') || 0;
  const order = m[3] ? SUFFIXES.indexOf(m[3].toUpperCase()) + 1 : 0;
  const magnitude = value === 0 ? 0 : order * 1e6 + Math.log10(value) + 1e5;
  return m[1] ? -magnitude : magnitude;
}

/** -g: strtod's value; what is not a number sorts first. */
function general(a: string, b: string): number {
  const x = Number.parseFloat(a);
  const y = Number.parseFloat(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

function month(s: string): number {
  return MONTHS.indexOf(s.trimStart().slice(0, 3).toUpperCase()) + 1;
}
