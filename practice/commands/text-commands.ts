// uniq and stat as GNU coreutils print them, and rev as util-linux reverses (just-bash's own differ in the count's width and in the
// owner names): the differential test against Debian's tools found both.
import { defineCommand, latin1FromBytes } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { binary, describeFsError, fail, parseFlags, stdinBytes } from './command-env.ts';
import { modeString } from './list-commands.ts';
import { uidOf } from '../world/accounts.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function textCommands(env: CommandEnv) {
  const { fs } = env;

  const uniq = defineCommand('uniq', async (args, ctx) => {
    const { flags, operands } = parseFlags(args);
    let input: string;
    if (operands[0] && operands[0] !== '-') {
      try {
        input = Buffer.from(await fs.readFileBuffer(fs.resolvePath(ctx.cwd, operands[0]))).toString('latin1');
      } catch (err) {
        return fail(`uniq: ${operands[0]}: ${describeFsError(err)}`);
      }
    } else input = latin1FromBytes(ctx.stdin);
    const lines = input.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const same = flags.has('i')
      ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
      : (a: string, b: string) => a === b;
    let out = '';
    for (let i = 0; i < lines.length; ) {
      let j = i + 1;
      while (j < lines.length && same(lines[i]!, lines[j]!)) j++;
      const count = j - i;
      const keep = flags.has('d') ? count > 1 : flags.has('u') ? count === 1 : true;
      if (keep) out += flags.has('c') ? `${String(count).padStart(7)} ${lines[i]}\n` : `${lines[i]}\n`;
      i = j;
    }
    return binary(out);
  });

  const stat = defineCommand('stat', async (args, ctx) => {
    const { flags, operands } = parseFlags(args, ['c', 'format']);
    const format =
      typeof flags.get('c') === 'string'
        ? String(flags.get('c'))
        : typeof flags.get('format') === 'string'
          ? String(flags.get('format'))
          : undefined;
    if (operands.length === 0) return fail("stat: missing operand\nTry 'stat --help' for more information.");
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    for (const operand of operands) {
      const path = fs.resolvePath(ctx.cwd, operand);
      try {
        const s = await fs.lstat(path);
        const o = await fs.ownership(path);
        const size = s.isDirectory ? 4096 : s.size;
        const kind = s.isDirectory
          ? 'directory'
          : s.isSymbolicLink
            ? 'symbolic link'
            : size === 0
              ? 'regular empty file'
              : 'regular file';
        const uid = (name: string) => String(uidOf(name));
        const mode = (s.mode & 0o7777).toString(8);
        const fields: Record<string, string> = {
          s: String(size),
          a: mode,
          A: modeString(s),
          U: o.owner,
          G: o.group,
          u: uid(o.owner),
          g: uid(o.group),
          F: kind,
          n: operand,
          N: `'${operand}'`,
          h: s.isDirectory ? '2' : '1',
          b: String(Math.ceil(size / 4096) * 8),
          B: '512',
        };
        if (format === undefined) {
          stdout += `  File: ${operand}\n  Size: ${size}\tBlocks: ${fields.b}\tIO Block: 4096   ${kind}\nAccess: (0${mode.padStart(3, '0')}/${fields.A})  Uid: (${uid(o.owner).padStart(5)}/${o.owner.padStart(8)})   Gid: (${uid(o.group).padStart(5)}/${o.group.padStart(8)})\n`;
        } else stdout += `${format.replace(/%(.)/g, (all, c: string) => (c === '%' ? '%' : (fields[c] ?? all)))}\n`;
      } catch (err) {
        stderr += `stat: cannot statx '${operand}': ${describeFsError(err)}\n`;
        exitCode = 1;
      }
    }
    return { stdout, stderr, exitCode };
  });

  // rev as util-linux reverses in C.UTF-8: by character; a line that is not UTF-8 ends the file
  // with an error (fgetws fails), and nothing of that line is printed.
  const rev = defineCommand('rev', async (args, ctx) => {
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    for (const operand of args.length ? args : [undefined]) {
      const name = operand ?? 'stdin';
      let data: Uint8Array;
      try {
        data =
          operand === undefined || operand === '-'
            ? stdinBytes(ctx.stdin)
            : await fs.readFileBuffer(fs.resolvePath(ctx.cwd, operand));
      } catch (err) {
        stderr += `rev: cannot open ${name}: ${describeFsError(err)}\n`;
        exitCode = 1;
        continue;
      }
      const lines = Buffer.from(data)
        .toString('latin1')
        .split(/(?<=\n)/);
      for (const [done, line] of lines.entries()) {
        let text: string;
        try {
          text = strictUtf8.decode(Buffer.from(line, 'latin1'));
        } catch {
          // util-linux names the lines it read before the one it could not.
          stderr += `rev: ${name}: ${done}: Invalid or incomplete multibyte or wide character\n`;
          exitCode = 1;
          break;
        }
        const newline = text.endsWith('\n');
        stdout += `${[...(newline ? text.slice(0, -1) : text)].reverse().join('')}${newline ? '\n' : ''}`;
      }
    }
    return { stdout, stderr, exitCode };
  });

  return [uniq, stat, rev];
}
