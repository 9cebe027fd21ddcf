// diff in GNU's default ("normal") format, -q, -u and -y: just-bash's own prints unified output by
// default, which is not what a player sees on Bandit (level 17 is solved by reading this output).
// Files are bytes (one character each) and so is the output.
import { defineCommand } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { binary, describeFsError, fail } from './command-env.ts';
import { sideBySide } from './diff-side-by-side.ts';

export type Edit = { kind: 'same' | 'del' | 'add'; line: string };

/** The shortest edit script by longest common subsequence (the files of a level are small). */
export function editScript(a: string[], b: string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] =
        a[i] === b[j]
          ? table[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      edits.push({ kind: 'same', line: a[i++]! });
      j++;
    } else if (i < n && (j === m || table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!))
      edits.push({ kind: 'del', line: a[i++]! });
    else edits.push({ kind: 'add', line: b[j++]! });
  }
  return edits;
}

/** The change that starts at `k`: its old lines, its new lines, and where the next edit starts. */
export function change(edits: Edit[], k: number): { dels: string[]; adds: string[]; next: number } {
  const dels: string[] = [];
  const adds: string[] = [];
  while (k < edits.length && edits[k]!.kind !== 'same') {
    const e = edits[k++]!;
    (e.kind === 'del' ? dels : adds).push(e.line);
  }
  return { dels, adds, next: k };
}

const range = (start: number, count: number) =>
  count <= 1 ? String(count === 0 ? start - 1 : start) : `${start},${start + count - 1}`;

/** GNU's normal format: "6c6", "< old", "---", "> new". */
function normal(edits: Edit[]): string {
  let out = '';
  let ai = 1;
  let bi = 1;
  for (let k = 0; k < edits.length; ) {
    if (edits[k]!.kind === 'same') {
      ai++;
      bi++;
      k++;
      continue;
    }
    const { dels, adds, next } = change(edits, k);
    k = next;
    const op = dels.length && adds.length ? 'c' : dels.length ? 'd' : 'a';
    out += `${range(ai, dels.length)}${op}${range(bi, adds.length)}\n`;
    out += dels.map((l) => `< ${l}\n`).join('');
    if (op === 'c') out += '---\n';
    out += adds.map((l) => `> ${l}\n`).join('');
    ai += dels.length;
    bi += adds.length;
  }
  return out;
}

/** GNU's unified format with three lines of context (headers written by the caller). */
export function unified(edits: Edit[], context = 3): string {
  const changed = edits.map((e) => e.kind !== 'same');
  let out = '';
  let k = 0;
  // Line numbers before edit k, in each file.
  const aAt: number[] = [];
  const bAt: number[] = [];
  let a = 1;
  let b = 1;
  for (const e of edits) {
    aAt.push(a);
    bAt.push(b);
    if (e.kind !== 'add') a++;
    if (e.kind !== 'del') b++;
  }
  while (k < edits.length) {
    if (!changed[k]) {
      k++;
      continue;
    }
    const start = Math.max(0, k - context);
    let end = k;
    // Extend the hunk while the next change is within twice the context.
    for (;;) {
      while (end < edits.length && changed[end]) end++;
      let next = end;
      while (next < edits.length && !changed[next]) next++;
      if (next < edits.length && next - end <= 2 * context) end = next;
      else break;
    }
    const stop = Math.min(edits.length, end + context);
    const hunk = edits.slice(start, stop);
    const aCount = hunk.filter((e) => e.kind !== 'add').length;
    const bCount = hunk.filter((e) => e.kind !== 'del').length;
    const head = (at: number, count: number) => (count === 1 ? `${at}` : `${count === 0 ? at - 1 : at},${count}`);
    out += `@@ -${head(aAt[start]!, aCount)} +${head(bAt[start]!, bCount)} @@\n`;
    out += hunk.map((e) => `${e.kind === 'same' ? ' ' : e.kind === 'del' ? '-' : '+'}${e.line}\n`).join('');
    k = stop;
  }
  return out;
}

/** The time in a unified diff's header, as GNU diff prints it. */
function headerTime(date: Date): string {
  return `${date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.(\d{3})Z$/, '.$1000000 +0000')}`;
}

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffCommand(env: CommandEnv) {
  const { fs } = env;
  return defineCommand('diff', async (args, ctx) => {
    let options: DiffOptions;
    try {
      options = parseDiffArgs(args);
    } catch (err) {
      return fail(`diff: ${(err as Error).message}\ndiff: Try 'diff --help' for more information.`, 2);
    }
    const { files } = options;
    if (files.length !== 2)
      return fail(
        `diff: ${files.length < 2 ? 'missing' : 'extra'} operand after '${files[files.length - 1] ?? 'diff'}'\ndiff: Try 'diff --help' for more information.`,
        2,
      );
    const texts: string[] = [];
    const times: Date[] = [];
    for (const file of files) {
      try {
        const path = fs.resolvePath(ctx.cwd, file);
        times.push((await fs.stat(path)).mtime);
        texts.push(Buffer.from(await fs.readFileBuffer(path)).toString('latin1'));
      } catch (err) {
        return fail(`diff: ${file}: ${describeFsError(err)}`, 2);
      }
    }
    if (texts[0] === texts[1]) return binary('');
    if (options.style === 'brief') return binary(`Files ${files[0]} and ${files[1]} differ\n`, '', 1);
    const edits = editScript(splitLines(texts[0]!), splitLines(texts[1]!));
    if (options.style === 'unified') {
      const header = `--- ${files[0]}\t${headerTime(times[0]!)}\n+++ ${files[1]}\t${headerTime(times[1]!)}\n`;
      return binary(header + unified(edits), '', 1);
    }
    if (options.style === 'side-by-side') return binary(sideBySide(edits, options), '', 1);
    return binary(normal(edits), '', 1);
  });
}

type DiffOptions = {
  style: 'normal' | 'brief' | 'unified' | 'side-by-side';
  width: number;
  suppressCommon: boolean;
  leftColumn: boolean;
  expandTabs: boolean;
  files: string[];
};

function parseDiffArgs(args: string[]): DiffOptions {
  const o: DiffOptions = {
    style: 'normal',
    width: 130,
    suppressCommon: false,
    leftColumn: false,
    expandTabs: false,
    files: [],
  };
  let brief = false;
  const style = (s: DiffOptions['style']) => {
    if (o.style !== 'normal' && o.style !== s) throw new Error('conflicting output style options');
    o.style = s;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      o.files.push(...args.slice(i + 1));
      break;
    }
    const width = /^(?:-W|--width=)(\d*)$/.exec(arg);
    if (width) {
      const value = width[1] || args[++i] || '';
      if (!/^[1-9]\d*$/.test(value)) throw new Error(`invalid width '${value}'`);
      o.width = Number(value);
    } else if (arg === '-q' || arg === '--brief') brief = true;
    else if (arg === '-u' || arg === '--unified') style('unified');
    else if (arg === '-y' || arg === '--side-by-side') style('side-by-side');
    else if (arg === '--suppress-common-lines') o.suppressCommon = true;
    else if (arg === '--left-column') o.leftColumn = true;
    else if (arg === '-t' || arg === '--expand-tabs') o.expandTabs = true;
    else if (/^-[quyt]+$/.test(arg)) for (const f of arg.slice(1)) parseDiffFlag(f, o, style, () => (brief = true));
    else if (arg.startsWith('-') && arg !== '-')
      throw new Error(
        `the practice range's diff draws the normal format, -q, -u and -y (with -W, -t, --suppress-common-lines, --left-column); ${arg} is not one of them`,
      );
    else o.files.push(arg);
  }
  if (brief) o.style = 'brief';
  return o;
}

function parseDiffFlag(f: string, o: DiffOptions, style: (s: DiffOptions['style']) => void, brief: () => void): void {
  if (f === 'q') brief();
  else if (f === 'u') style('unified');
  else if (f === 'y') style('side-by-side');
  else o.expandTabs = true;
}
