// tr as GNU coreutils 9.1 works: on bytes (GNU tr has no multibyte support), with ranges, octal
// and backslash escapes, [:class:], [=c=] and [c*n], -c/-C, -d, -s and -t. just-bash's tr decoded
// binary input as UTF-8 first, which the differential test showed on bandit9's data.txt.
import { defineCommand } from 'just-bash';
import { binary, stdinBytes } from './command-env.ts';

const CLASSES: Record<string, (b: number) => boolean> = {
  alnum: (b) => CLASSES.alpha!(b) || CLASSES.digit!(b),
  alpha: (b) => CLASSES.upper!(b) || CLASSES.lower!(b),
  blank: (b) => b === 0x20 || b === 0x09,
  cntrl: (b) => b < 0x20 || b === 0x7f,
  digit: (b) => b >= 0x30 && b <= 0x39,
  graph: (b) => b > 0x20 && b < 0x7f,
  lower: (b) => b >= 0x61 && b <= 0x7a,
  print: (b) => b >= 0x20 && b < 0x7f,
  punct: (b) => CLASSES.graph!(b) && !CLASSES.alnum!(b),
  space: (b) => b === 0x20 || (b >= 0x09 && b <= 0x0d),
  upper: (b) => b >= 0x41 && b <= 0x5a,
  xdigit: (b) => CLASSES.digit!(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66),
};
const ESCAPES: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };

class TrError extends Error {}

/** A set's bytes in order; a [c*n] with no n (fill) is marked by `fill` at its position. */
function expand(spec: string, second: boolean): { bytes: number[]; fill?: { at: number; byte: number } } {
  // The spec arrives as a JS string of the player's text; its characters above 0xff are UTF-8.
  const s = [...Buffer.from(spec, 'utf8')];
  const bytes: number[] = [];
  let fill: { at: number; byte: number } | undefined;
  const at = (i: number): [number, number] => {
    if (s[i] !== 0x5c || i + 1 >= s.length) return [s[i]!, i + 1];
    let j = i + 1;
    if (s[j]! >= 0x30 && s[j]! <= 0x37) {
      let value = 0;
      for (let k = 0; k < 3 && s[j]! >= 0x30 && s[j]! <= 0x37; k++, j++) value = value * 8 + s[j]! - 0x30;
      return [value & 0xff, j];
    }
    const c = String.fromCharCode(s[j]!);
    return [ESCAPES[c] ?? s[j]!, j + 1];
  };
  for (let i = 0; i < s.length; ) {
    const rest = Buffer.from(s.slice(i)).toString('latin1');
    const cls = /^\[:([a-z]+):\]/.exec(rest);
    if (cls) {
      const test = CLASSES[cls[1]!];
      if (!test) throw new TrError(`invalid character class ‘${cls[1]}’`);
      for (let b = 0; b < 256; b++) if (test(b)) bytes.push(b);
      i += cls[0].length;
      continue;
    }
    const equiv = /^\[=(.)=\]/s.exec(rest);
    if (equiv) {
      bytes.push(equiv[1]!.charCodeAt(0));
      i += equiv[0].length;
      continue;
    }
    if (second && s[i] === 0x5b) {
      const [byte, next] = at(i + 1);
      const repeat = /^\*(\d*)\]/.exec(Buffer.from(s.slice(next)).toString('latin1'));
      if (repeat) {
        const count = repeat[1] ? Number.parseInt(repeat[1], repeat[1].startsWith('0') ? 8 : 10) : 0;
        if (count === 0) fill = { at: bytes.length, byte };
        else for (let k = 0; k < count; k++) bytes.push(byte);
        i = next + repeat[0].length;
        continue;
      }
    }
    const [first, next] = at(i);
    if (s[next] === 0x2d && next + 1 < s.length) {
      const [last, after] = at(next + 1);
      if (last < first)
        throw new TrError(
          `range-endpoints of '${String.fromCharCode(first)}-${String.fromCharCode(last)}' are in reverse collating sequence order`,
        );
      for (let b = first; b <= last; b++) bytes.push(b);
      i = after;
      continue;
    }
    bytes.push(first);
    i = next;
  }
  return fill ? { bytes, fill } : { bytes };
}

export const trCommand = defineCommand('tr', async (args, ctx) => {
  let complement = false;
  let del = false;
  let squeeze = false;
  let truncate = false;
  const sets: string[] = [];
  let options = true;
  for (const arg of args) {
    if (options && arg === '--') options = false;
    else if (options && /^-[cCdst]+$/.test(arg)) {
      for (const f of arg.slice(1)) {
        if (f === 'c' || f === 'C') complement = true;
        else if (f === 'd') del = true;
        else if (f === 's') squeeze = true;
        else truncate = true;
      }
    } else if (options && /^--(complement|delete|squeeze-repeats|truncate-set1)$/.test(arg)) {
      complement ||= arg === '--complement';
      del ||= arg === '--delete';
      squeeze ||= arg === '--squeeze-repeats';
      truncate ||= arg === '--truncate-set1';
    } else if (options && arg.startsWith('-') && arg.length > 1) {
      return {
        stdout: '',
        stderr: `tr: invalid option -- '${arg[1]}'\nTry 'tr --help' for more information.\n`,
        exitCode: 1,
      };
    } else sets.push(arg);
  }
  const needed = del ? (squeeze ? 2 : 1) : squeeze && sets.length < 2 ? 1 : 2;
  const usage = "Try 'tr --help' for more information.\n";
  if (sets.length < needed) {
    const why = sets.length === 0 ? 'missing operand' : `missing operand after ‘${sets[sets.length - 1]}’`;
    const more =
      needed === 2 && !del && sets.length === 1
        ? squeeze
          ? 'Two strings must be given when both deleting and squeezing repeats.\n'
          : 'Two strings must be given when translating.\n'
        : '';
    return { stdout: '', stderr: `tr: ${why}\n${more}${usage}`, exitCode: 1 };
  }
  if (sets.length > needed)
    return {
      stdout: '',
      stderr: `tr: extra operand ‘${sets[needed]}’\n${needed === 1 && del ? 'Only one string may be given when deleting without squeezing repeats.\n' : ''}${usage}`,
      exitCode: 1,
    };

  let set1: number[];
  let set2: number[] = [];
  try {
    set1 = expand(sets[0]!, false).bytes;
    if (complement) {
      const inSet = new Set(set1);
      set1 = [...Array(256).keys()].filter((b) => !inSet.has(b));
    }
    if (sets[1] !== undefined) {
      const second = expand(sets[1], true);
      set2 = second.bytes;
      if (second.fill)
        set2.splice(second.fill.at, 0, ...Array(Math.max(0, set1.length - set2.length)).fill(second.fill.byte));
    }
  } catch (err) {
    return { stdout: '', stderr: `tr: ${(err as Error).message}\n`, exitCode: 1 };
  }
  const input = stdinBytes(ctx.stdin);
  const out: number[] = [];
  const squeezeSet = new Set(squeeze ? (sets.length === 2 || del ? set2 : set1) : []);
  const push = (b: number) => {
    if (squeezeSet.has(b) && out[out.length - 1] === b) return;
    out.push(b);
  };
  if (del) {
    const gone = new Set(set1);
    for (const b of input) if (!gone.has(b)) push(b);
  } else if (sets.length === 2) {
    if (set2.length === 0 && set1.length > 0 && !truncate)
      return { stdout: '', stderr: 'tr: when not truncating set1, string2 must be non-empty\n', exitCode: 1 };
    const map = [...Array(256).keys()];
    const pairs = truncate ? Math.min(set1.length, set2.length) : set1.length;
    for (let i = 0; i < pairs; i++) map[set1[i]!] = set2[Math.min(i, set2.length - 1)]!;
    for (const b of input) push(map[b]!);
  } else for (const b of input) push(b);
  return binary(Uint8Array.from(out));
});
