// ls and cat that know owners and permissions, and say "Permission denied" the way coreutils do.
import type { FsStat } from 'just-bash';
import { defineCommand, latin1FromBytes } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { binary, describeFsError, parseFlags } from './command-env.ts';

/** "drwxr-xr-x", with s/t for setuid and sticky bits. */
export function modeString(stat: FsStat): string {
  const type = stat.isSymbolicLink ? 'l' : stat.isDirectory ? 'd' : '-';
  const m = stat.mode;
  const rwx = (shift: number, special: boolean, letter: string) => {
    const bits = (m >> shift) & 7;
    const x = bits & 1 ? (special ? letter : 'x') : special ? letter.toUpperCase() : '-';
    return `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${x}`;
  };
  return type + rwx(6, (m & 0o4000) !== 0, 's') + rwx(3, (m & 0o2000) !== 0, 's') + rwx(0, (m & 0o1000) !== 0, 't');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const SIX_MONTHS_MS = (365.2425 / 2) * 24 * 3600 * 1000;

/** GNU ls: the time for files changed in the last six months, the year for older (or future) ones. */
function when(date: Date, now = Date.now()): string {
  const day = `${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2)}`;
  const recent = date.getTime() <= now && now - date.getTime() < SIX_MONTHS_MS;
  return recent
    ? `${day} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`
    : `${day}  ${date.getUTCFullYear()}`;
}

/** Codepoint order, as ls and sort use it in the C.UTF-8 locale. */
function byCodepoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type Row = { mode: string; links: string; owner: string; group: string; size: string; date: string; name: string };

/** Lines of `ls -l`: each column as wide as its widest entry, numbers to the right. */
function layOut(rows: Row[]): string {
  const width = (key: keyof Row) => Math.max(0, ...rows.map((r) => r[key].length));
  const w = { links: width('links'), owner: width('owner'), group: width('group'), size: width('size') };
  return rows
    .map(
      (r) =>
        `${r.mode} ${r.links.padStart(w.links)} ${r.owner.padEnd(w.owner)} ${r.group.padEnd(w.group)} ${r.size.padStart(w.size)} ${r.date} ${r.name}\n`,
    )
    .join('');
}

function human(size: number): string {
  if (size < 1024) return String(size);
  const units = ['K', 'M', 'G'];
  let value = size;
  let unit = '';
  for (const u of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = u;
  }
  // GNU rounds up: 2,912 bytes are 2.9K, not 2.8K.
  return value < 10 ? `${(Math.ceil(value * 10) / 10).toFixed(1)}${unit}` : `${Math.ceil(value)}${unit}`;
}

export function listCommands(env: CommandEnv) {
  const { fs } = env;

  const ls = defineCommand('ls', async (args, ctx) => {
    const { flags, operands } = parseFlags(args);
    const long = flags.has('l');
    const all = flags.has('a');
    const almostAll = flags.has('A');
    const humanSizes = flags.has('h');
    const dirItself = flags.has('d');
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    const targets = operands.length ? operands : ['.'];

    /** A directory's link count: itself, its entry in the parent, and each subdirectory's "..". */
    const links = async (path: string, stat: FsStat) => {
      if (!stat.isDirectory) return 1;
      try {
        const names = await fs.readdir(path);
        const stats = await Promise.all(
          names.map((n) => fs.lstat(`${path === '/' ? '' : path}/${n}`).catch(() => null)),
        );
        return 2 + stats.filter((s) => s?.isDirectory).length;
      } catch {
        return 2;
      }
    };

    /** One entry's row, and its size in 1K blocks for the "total" header. Directories are 4096 bytes. */
    const entry = async (path: string, name: string) => {
      const stat = await fs.lstat(path);
      const bytes = stat.isDirectory ? 4096 : stat.size;
      const blocks = Math.ceil(bytes / 4096) * 4;
      if (!long) return { text: `${name}\n`, blocks };
      const o = await fs.ownership(path);
      const shown = stat.isSymbolicLink ? `${name} -> ${await fs.readlink(path).catch(() => '?')}` : name;
      const row: Row = {
        mode: modeString(stat),
        links: String(await links(path, stat)),
        owner: o.owner,
        group: o.group,
        size: humanSizes ? human(bytes) : String(bytes),
        date: when(stat.mtime),
        name: shown,
      };
      return { text: '', row, blocks };
    };

    for (const target of targets) {
      const path = fs.resolvePath(ctx.cwd, target);
      let stat: FsStat;
      try {
        stat = await fs.stat(path);
      } catch (err) {
        stderr += `ls: cannot access '${target}': ${describeFsError(err)}\n`;
        exitCode = 2;
        continue;
      }
      if (!stat.isDirectory || dirItself) {
        const one = await entry(path, target);
        stdout += one.row ? layOut([one.row]) : one.text;
        continue;
      }
      let names: string[];
      try {
        names = await fs.readdir(path);
      } catch (err) {
        stderr += `ls: cannot open directory '${target}': ${describeFsError(err)}\n`;
        exitCode = 2;
        continue;
      }
      names = names.filter((n) => all || almostAll || !n.startsWith('.'));
      // . and .. take their place in the same order (before .file, after -file, as real ls puts them).
      if (all) names = ['.', '..', ...names];
      names.sort(byCodepoint);
      if (targets.length > 1) stdout += `${stdout ? '\n' : ''}${target}:\n`;
      let block = '';
      const rows: Row[] = [];
      let total = 0;
      for (const name of names) {
        const child =
          name === '.'
            ? path
            : name === '..'
              ? path.replace(/\/[^/]+$/, '') || '/'
              : `${path === '/' ? '' : path}/${name}`;
        try {
          const { text, row, blocks } = await entry(child, name);
          block += text;
          if (row) rows.push(row);
          total += blocks;
        } catch (err) {
          stderr += `ls: cannot access '${name}': ${describeFsError(err)}\n`;
        }
      }
      stdout += long ? `total ${total}\n${layOut(rows)}` : block;
    }
    return { stdout, stderr, exitCode };
  });

  const cat = defineCommand('cat', async (args, ctx) => {
    const { flags, operands } = parseFlags(args);
    const parts: string[] = [];
    let stderr = '';
    let exitCode = 0;
    for (const operand of operands.length ? operands : ['-']) {
      if (operand === '-') {
        parts.push(latin1FromBytes(ctx.stdin));
        continue;
      }
      const path = fs.resolvePath(ctx.cwd, operand);
      try {
        if ((await fs.stat(path)).isDirectory) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
        parts.push(Buffer.from(await fs.readFileBuffer(path)).toString('latin1'));
      } catch (err) {
        stderr += `cat: ${operand}: ${describeFsError(err)}\n`;
        exitCode = 1;
      }
    }
    const text = parts.join('');
    // -n numbers every output line as coreutils does: six columns, then a tab.
    const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
    const numbered = flags.has('n') ? lines.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('') : text;
    return binary(numbered, stderr, exitCode);
  });

  return [ls, cat];
}
