// file, du and xxd: telling text from data, measuring files, and hex dumps both ways.
import { defineCommand, latin1FromBytes } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { binary, describeFsError, fail, ok, parseFlags, stdinBytes } from './command-env.ts';
import { xxdDump } from '../world/encoders.ts';
import { describeElf } from './elf-description.ts';

/** What `file` says about some bytes. */
/** What file(1) 5.44 says about `bytes`; `seekable` is false for a pipe, where it cannot read the end. */
export function describeBytes(bytes: Uint8Array, seekable = true): string {
  if (bytes.length === 0) return 'empty';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    let name = '';
    if (bytes[3]! & 0x08)
      for (let i = 10; i < bytes.length && bytes[i] !== 0; i++) name += String.fromCharCode(bytes[i]!);
    // The trailer's last four bytes: the original size modulo 2^32.
    const size = seekable && bytes.length >= 18 ? Buffer.from(bytes).readUInt32LE(bytes.length - 4) : undefined;
    // The header's XFL byte: 2 when gzip -9 wrote it, 4 for gzip -1, 0 otherwise.
    const level = bytes[8] === 2 ? ', max compression' : bytes[8] === 4 ? ', max speed' : '';
    return `gzip compressed data${name ? `, was "${name}"` : ''}${level}, from Unix${size === undefined ? '' : `, original size modulo 2^32 ${size}`}`;
  }
  if (bytes[0] === 0x42 && bytes[1] === 0x5a && bytes[2] === 0x68)
    return `bzip2 compressed data, block size = ${String.fromCharCode(bytes[3]!)}00k`;
  if (bytes.length > 262 && String.fromCharCode(...bytes.subarray(257, 262)) === 'ustar')
    return 'POSIX tar archive (GNU)';
  if (bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46) return describeElf(bytes);
  const head = String.fromCharCode(...bytes.subarray(0, 40));
  if (head.startsWith('-----BEGIN OPENSSH PRIVATE KEY')) return 'OpenSSH private key';
  if (head.startsWith('#!')) return 'a script, ASCII text executable';
  let ascii = true;
  for (const b of bytes) {
    if (b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b < 0x7f)) continue;
    if (b >= 0x80) ascii = false;
    else return 'data';
  }
  // file(1) notes lines longer than 300 bytes, with the longest.
  let longest = 0;
  let run = 0;
  for (const b of bytes) {
    run = b === 0x0a ? 0 : run + 1;
    if (run > longest) longest = run;
  }
  const lines = longest > 300 ? `, with very long lines (${longest})` : '';
  if (ascii) return `ASCII text${lines}`;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return `Unicode text, UTF-8 text${lines}`;
  } catch {
    return 'data';
  }
}

/** Bytes back from an xxd dump (normal layout) or a plain one (-p). */
export function xxdReverse(dump: string, plain: boolean): Uint8Array {
  let hex = '';
  for (const line of dump.split('\n')) {
    if (plain) hex += line.replace(/[^0-9a-fA-F]/g, '');
    else {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      hex += line.slice(colon + 1, colon + 1 + 41).replace(/[^0-9a-fA-F]/g, '');
    }
  }
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function inspectCommands(env: CommandEnv) {
  const { fs } = env;

  const file = defineCommand('file', async (args, ctx) => {
    const { flags, operands } = parseFlags(args);
    // -b (brief): the description without the file name, as `file -b` prints it.
    // Several names are padded so that the descriptions line up, as file(1) does.
    const named = (operand: string) => (operand === '-' ? '/dev/stdin' : operand);
    const width = Math.max(...operands.map((o) => named(o).length)) + 1;
    const label = (operand: string) =>
      flags.has('b') ? '' : `${`${named(operand)}:`.padEnd(operands.length > 1 ? width : 0)} `;
    if (operands.length === 0)
      return fail('Usage: file [-bchikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding] file ...', 1);
    let stdout = '';
    for (const operand of operands) {
      if (operand === '-') {
        stdout += `${label(operand)}${describeBytes(Buffer.from(latin1FromBytes(ctx.stdin), 'latin1'), false)}\n`;
        continue;
      }
      const path = fs.resolvePath(ctx.cwd, operand);
      try {
        const stat = await fs.stat(path);
        // file(1) puts the special mode bits first: "sticky, directory", "setuid ELF 32-bit …".
        const bits = [
          stat.mode & 0o4000 && 'setuid',
          stat.mode & 0o2000 && 'setgid',
          stat.mode & 0o1000 && 'sticky',
        ].filter(Boolean);
        if (stat.isDirectory) {
          stdout += `${label(operand)}${bits.map((b) => `${b}, `).join('')}directory\n`;
          continue;
        }
        stdout += `${label(operand)}${bits.map((b) => `${b} `).join('')}${describeBytes(await fs.readFileBuffer(path))}\n`;
      } catch (err) {
        const why = describeFsError(err);
        stdout +=
          why === 'Permission denied'
            ? `${label(operand)}regular file, no read permission\n`
            : `${label(operand)}cannot open \`${operand}' (${why})\n`;
      }
    }
    return ok(stdout);
  });

  const du = defineCommand('du', async (args, ctx) => {
    const { flags, operands } = parseFlags(args);
    const bytes = flags.has('b');
    const all = flags.has('a');
    const summary = flags.has('s');
    const size = (n: number) => (bytes ? n : Math.ceil(n / 4096) * 4);
    let stdout = '';
    let stderr = '';
    const walk = async (path: string, shown: string, depth: number): Promise<number> => {
      const stat = await fs.lstat(path);
      if (!stat.isDirectory) {
        if ((all || depth === 0) && !summary) stdout += `${size(stat.size)}\t${shown}\n`;
        return size(stat.size);
      }
      let total = bytes ? 4096 : 4;
      try {
        for (const name of (await fs.readdir(path)).sort())
          total += await walk(`${path === '/' ? '' : path}/${name}`, `${shown}/${name}`, depth + 1);
      } catch (err) {
        stderr += `du: cannot read directory '${shown}': ${describeFsError(err)}\n`;
      }
      if (!summary || depth === 0) stdout += `${total}\t${shown}\n`;
      return total;
    };
    for (const operand of operands.length ? operands : ['.']) {
      try {
        await walk(fs.resolvePath(ctx.cwd, operand), operand, 0);
      } catch (err) {
        stderr += `du: cannot access '${operand}': ${describeFsError(err)}\n`;
      }
    }
    return { stdout, stderr, exitCode: stderr ? 1 : 0 };
  });

  const xxd = defineCommand('xxd', async (args, ctx) => {
    const { flags, operands } = parseFlags(args);
    const [input, output] = operands;
    let data: Uint8Array;
    try {
      data = input && input !== '-' ? await fs.readFileBuffer(fs.resolvePath(ctx.cwd, input)) : stdinBytes(ctx.stdin);
    } catch (err) {
      return fail(`xxd: ${input}: ${describeFsError(err)}`, 2);
    }
    const result = flags.has('r')
      ? xxdReverse(new TextDecoder('latin1').decode(data), flags.has('p'))
      : new TextEncoder().encode(
          flags.has('p')
            ? `${(
                Buffer.from(data)
                  .toString('hex')
                  .match(/.{1,60}/g) ?? []
              ).join('\n')}\n`
            : xxdDump(data),
        );
    if (output) {
      try {
        await fs.writeFile(fs.resolvePath(ctx.cwd, output), result);
      } catch (err) {
        return fail(`xxd: ${output}: ${describeFsError(err)}`, 2);
      }
      return ok('');
    }
    return binary(result);
  });

  return [file, du, xxd];
}
