// find with the tests Bandit needs — -type, -name, -size, -user, -group, -readable, -executable,
// -perm, -empty, depth limits, ! / -o / parentheses, -exec — and "Permission denied" on the way.
import { defineCommand } from 'just-bash';
import type { FsStat } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { describeFsError } from './command-env.ts';

type Entry = { path: string; stat: FsStat };
type Test = (e: Entry) => Promise<boolean>;
type Parsed = { test: Test; actions: ((e: Entry) => Promise<string>)[] };

function glob(pattern: string, flags = ''): RegExp {
  const body = pattern
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, flags);
}

function sizeTest(spec: string): Test {
  const m = /^([+-]?)(\d+)([bckMG]?)$/.exec(spec);
  if (!m) throw new Error(`invalid argument \`${spec}' to \`-size'`);
  const unit = { b: 512, c: 1, k: 1024, M: 1024 ** 2, G: 1024 ** 3, '': 512 }[m[3] as 'b'];
  const n = Number(m[2]);
  return async ({ stat }) => {
    const units = Math.ceil(stat.size / unit);
    return m[1] === '+' ? units > n : m[1] === '-' ? units < n : units === n;
  };
}

export function findCommand(env: CommandEnv) {
  const { fs } = env;
  return defineCommand('find', async (args, ctx) => {
    const roots: string[] = [];
    let i = 0;
    while (i < args.length && !/^[-!(]/.test(args[i]!)) roots.push(args[i++]!);
    let maxDepth = Infinity;
    let minDepth = 0;
    const actions: Parsed['actions'] = [];
    const finals: (() => Promise<string>)[] = [];
    const rest = args.slice(i);
    let pos = 0;
    const next = () => rest[pos++];
    const need = (flag: string) => {
      const v = next();
      if (v === undefined) throw new Error(`missing argument to \`${flag}'`);
      return v;
    };

    // Recursive descent: or → and → not → primary.
    const primary = (): Test => {
      const token = next();
      switch (token) {
        case '(': {
          const inner = or();
          if (next() !== ')') throw new Error("invalid expression; I was expecting to find a ')' somewhere");
          return inner;
        }
        case '!':
        case '-not': {
          const inner = primary();
          return async (e) => !(await inner(e));
        }
        case '-type': {
          const t = need('-type');
          return async ({ stat }) =>
            t === 'd' ? stat.isDirectory : t === 'l' ? stat.isSymbolicLink : t === 'f' ? stat.isFile : false;
        }
        case '-name':
        case '-iname': {
          const re = glob(need(token), token === '-iname' ? 'i' : '');
          return async ({ path }) => re.test(path.slice(path.lastIndexOf('/') + 1));
        }
        case '-path': {
          const re = glob(need(token));
          return async ({ path }) => re.test(path);
        }
        case '-size':
          return sizeTest(need('-size'));
        case '-user': {
          const u = need('-user');
          return async ({ path }) => (await fs.ownership(abs(path))).owner === u;
        }
        case '-group': {
          const g = need('-group');
          return async ({ path }) => (await fs.ownership(abs(path))).group === g;
        }
        case '-readable':
          return async ({ path, stat }) => await fs.may(abs(path), stat.mode, 4);
        case '-writable':
          return async ({ path, stat }) => await fs.may(abs(path), stat.mode, 2);
        case '-executable':
          return async ({ path, stat }) => await fs.may(abs(path), stat.mode, 1);
        case '-perm': {
          const spec = need('-perm');
          const exact = !/^[-/]/.test(spec);
          const bits = modeBits(spec.replace(/^[-/]/, ''));
          return async ({ stat }) => {
            const mode = stat.mode & 0o7777;
            if (exact) return mode === bits;
            return spec.startsWith('-') ? (mode & bits) === bits : (mode & bits) !== 0;
          };
        }
        case '-empty':
          return async ({ stat }) => stat.size === 0 && !stat.isDirectory;
        case '-maxdepth':
          maxDepth = Number(need(token));
          return async () => true;
        case '-mindepth':
          minDepth = Number(need(token));
          return async () => true;
        case '-print':
          actions.push(async (e) => `${e.path}\n`);
          return async () => true;
        case '-exec': {
          const command: string[] = [];
          let end: string | undefined;
          for (let t = next(); t !== ';' && t !== '+'; t = next()) {
            if (t === undefined) throw new Error("missing argument to `-exec'");
            command.push(t);
            end = t;
          }
          const run = async (paths: string[]) => {
            const line = command.map((w) => (w === '{}' ? paths.map(quote).join(' ') : quote(w))).join(' ');
            return (await ctx.exec?.(line, { cwd: ctx.cwd }))?.stdout ?? '';
          };
          // `-exec … {} +` runs the command once, with every path found, after the walk.
          if (pos > 0 && rest[pos - 1] === '+' && end === '{}') {
            const batch: string[] = [];
            actions.push(async (e) => {
              batch.push(e.path);
              return '';
            });
            finals.push(async () => (batch.length ? run(batch) : ''));
          } else actions.push(async (e) => run([e.path]));
          return async () => true;
        }
        default:
          throw new Error(`unknown predicate \`${token}'`);
      }
    };
    const and = (): Test => {
      let left = primary();
      while (pos < rest.length && rest[pos] !== '-o' && rest[pos] !== '-or' && rest[pos] !== ')') {
        if (rest[pos] === '-a' || rest[pos] === '-and') pos++;
        const l = left;
        const r = primary();
        left = async (e) => (await l(e)) && r(e);
      }
      return left;
    };
    const or = (): Test => {
      let left = and();
      while (rest[pos] === '-o' || rest[pos] === '-or') {
        pos++;
        const l = left;
        const r = and();
        left = async (e) => (await l(e)) || r(e);
      }
      return left;
    };
    const abs = (p: string) => fs.resolvePath(ctx.cwd, p);

    let test: Test;
    try {
      test = rest.length ? or() : async () => true;
      if (pos < rest.length) throw new Error(`paths must precede expression: \`${rest[pos]}'`);
    } catch (err) {
      return { stdout: '', stderr: `find: ${(err as Error).message}\n`, exitCode: 1 };
    }
    if (actions.length === 0) actions.push(async (e) => `${e.path}\n`);

    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    const visit = async (path: string, depth: number): Promise<void> => {
      let stat: FsStat;
      try {
        stat = await fs.lstat(abs(path));
      } catch (err) {
        stderr += `find: '${path}': ${describeFsError(err)}\n`;
        exitCode = 1;
        return;
      }
      if (depth >= minDepth && (await test({ path, stat })))
        for (const act of actions) stdout += await act({ path, stat });
      if (!stat.isDirectory || depth >= maxDepth) return;
      let names: string[];
      try {
        names = await fs.readdir(abs(path));
      } catch (err) {
        stderr += `find: '${path}': ${describeFsError(err)}\n`;
        exitCode = 1;
        return;
      }
      for (const name of names.sort())
        await visit(path.endsWith('/') ? `${path}${name}` : `${path}/${name}`, depth + 1);
    };
    for (const root of roots.length ? roots : ['.']) await visit(root, 0);
    for (const final of finals) stdout += await final();
    return { stdout, stderr, exitCode };
  });
}

function quote(word: string): string {
  return /^[\w./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const WHO: Record<string, number> = { u: 0o4700, g: 0o2070, o: 0o0007, a: 0o6777 };
const WHAT: Record<string, number> = { r: 0o444, w: 0o222, x: 0o111, X: 0o111, s: 0o6000, t: 0o1000 };

/** -perm's mode: octal, or symbolic ("o=r", "u+s,g+w") applied to 0 as GNU find does. */
function modeBits(spec: string): number {
  if (/^[0-7]+$/.test(spec)) return Number.parseInt(spec, 8);
  let mode = 0;
  for (const clause of spec.split(',')) {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (!m) throw new Error(`invalid mode \`${spec}'`);
    const who = [...(m[1] || 'a')].reduce((bits, c) => bits | WHO[c]!, 0) | (m[3]!.includes('t') ? 0o1000 : 0);
    const what = [...m[3]!].reduce((bits, c) => bits | WHAT[c]!, 0) & who;
    if (m[2] === '=') mode &= ~who;
    mode = m[2] === '-' ? mode & ~what : mode | what;
  }
  return mode;
}
