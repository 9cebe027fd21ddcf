// bzip2/bunzip2 (just-bash has gzip and tar but no bzip2) and mktemp.
import Bunzip from 'seek-bzip';
import { defineCommand } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { binary, describeFsError, fail, ok, parseFlags, stdinBytes } from './command-env.ts';
import { bzip2 as compressBzip2 } from '../world/encoders.ts';

export function archiveCommands(env: CommandEnv) {
  const { fs } = env;

  const bzip2Like = (name: string, decompressByDefault: boolean) =>
    defineCommand(name, async (args, ctx) => {
      const { flags, operands } = parseFlags(args);
      const decompress = decompressByDefault || flags.has('d') || flags.has('decompress');
      const toStdout = flags.has('c') || flags.has('stdout');
      const keep = flags.has('k') || flags.has('keep');
      const transform = (data: Uint8Array, label: string): Uint8Array => {
        if (!decompress) return compressBzip2(data);
        if (!(data[0] === 0x42 && data[1] === 0x5a && data[2] === 0x68))
          throw new Error(`${label} is not a bzip2 file.`);
        return Uint8Array.from(Bunzip.decode(Buffer.from(data)));
      };
      if (operands.length === 0) {
        try {
          return binary(transform(stdinBytes(ctx.stdin), '(stdin)'));
        } catch (err) {
          return fail(`${name}: ${(err as Error).message}`, 2);
        }
      }
      let stdout = '';
      let stderr = '';
      let exitCode = 0;
      for (const operand of operands) {
        const path = fs.resolvePath(ctx.cwd, operand);
        try {
          const output = transform(await fs.readFileBuffer(path), operand);
          if (toStdout) {
            stdout += Buffer.from(output).toString('latin1');
            continue;
          }
          let target = decompress
            ? path.replace(/\.(bz2|bz|tbz2|tbz)$/, (m) => (m.startsWith('.tb') ? '.tar' : ''))
            : `${path}.bz2`;
          if (decompress && target === path) {
            target = `${path}.out`;
            stderr += `${name}: Can't guess original name for ${operand} -- using ${operand}.out\n`;
          }
          await fs.writeFile(target, output);
          if (!keep) await fs.rm(path);
        } catch (err) {
          const message = (err as Error).message;
          stderr += /not a bzip2 file/.test(message)
            ? `${name}: ${message}\n`
            : `${name}: Can't open input file ${operand}: ${describeFsError(err)}.\n`;
          exitCode = 2;
        }
      }
      return binary(stdout, stderr, exitCode);
    });

  const mktemp = defineCommand('mktemp', async (args) => {
    const { flags, operands } = parseFlags(args, ['p']);
    const template = operands[0] ?? 'tmp.XXXXXXXXXX';
    const base = typeof flags.get('p') === 'string' ? String(flags.get('p')) : '/tmp';
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const name = template.replace(/X{3,}$/, (xs) =>
      Array.from(xs, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(''),
    );
    const path = name.startsWith('/') ? name : `${base}/${name}`;
    try {
      if (flags.has('d')) {
        await fs.mkdir(path);
        await fs.chmod(path, 0o700);
      } else {
        await fs.writeFile(path, '');
        await fs.chmod(path, 0o600);
      }
    } catch (err) {
      return fail(
        `mktemp: failed to create ${flags.has('d') ? 'directory' : 'file'} via template '${path}': ${describeFsError(err)}`,
      );
    }
    return ok(`${path}\n`);
  });

  return [bzip2Like('bzip2', false), bzip2Like('bunzip2', true), mktemp];
}
