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

function when(date: Date): string {
  return `${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2)} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
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
  return `${value < 10 ? value.toFixed(1) : Math.round(value)}${unit}`;
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

    /** One entry's line, and its size in 1K blocks for the "total" header. */
    const entry = async (path: string, name: string) => {
      const stat = await fs.lstat(path);
      const blocks = Math.ceil(stat.size / 4096) * 4;
      if (!long) return { text: `${name}\n`, blocks };
      const o = await fs.ownership(path);
      const size = humanSizes ? human(stat.size) : String(stat.size);
      return { text: `${modeString(stat)} 1 ${o.owner.padEnd(8)} ${o.group.padEnd(8)} ${size.padStart(5)} ${when(stat.mtime)} ${name}\n`, blocks };
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
        stdout += (await entry(path, target)).text;
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
      names = names.filter((n) => all || almostAll || !n.startsWith('.')).sort((a, b) => a.replace(/^\.+/, '').localeCompare(b.replace(/^\.+/, '')));
      if (all) names = ['.', '..', ...names];
      if (targets.length > 1) stdout += `${stdout ? '\n' : ''}${target}:\n`;
      let block = '';
      let total = 0;
      for (const name of names) {
        const child = name === '.' ? path : name === '..' ? path.replace(/\/[^/]+$/, '') || '/' : `${path === '/' ? '' : path}/${name}`;
        try {
          const { text, blocks } = await entry(child, name);
          block += text;
          total += blocks;
        } catch (err) {
          stderr += `ls: cannot access '${name}': ${describeFsError(err)}\n`;
        }
      }
      stdout += (long ? `total ${total}\n` : '') + block;
    }
    return { stdout, stderr, exitCode };
  });

  const cat = defineCommand('cat', async (args, ctx) => {
    const { operands } = parseFlags(args);
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
    return binary(parts.join(''), stderr, exitCode);
  });

  return [ls, cat];
}
