// `rm` as GNU's: -f quiets only the operands that do not exist. just-bash's -f also hides every other
// failure, so a player's `rm -f` of another user's file in sticky /tmp said nothing and exited 0
// where GNU's says "Operation not permitted" and exits 1. This asks just-bash's rm without -f for the
// operands that exist, and drops the others as -f does.
import { defineCommand } from 'just-bash';
import type { CommandEnv } from './command-env.ts';

/** Whether `arg` is an option that includes -f (`-f`, `-rf`, `--force`). */
const forces = (arg: string) => arg === '--force' || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(arg);

export function rmCommand(env: CommandEnv) {
  return defineCommand('rm', async (args, ctx) => {
    const original = ctx.origCommand;
    if (!original) return { stdout: '', stderr: 'rm: not available\n', exitCode: 1 };
    const end = args.indexOf('--');
    const options = end < 0 ? args.filter((a) => a.startsWith('-') && a !== '-') : args.slice(0, end);
    if (!options.some(forces)) return original(args);
    const operands = end < 0 ? args.filter((a) => !a.startsWith('-') || a === '-') : args.slice(end + 1);
    const present: string[] = [];
    for (const operand of operands) {
      const path = operand.startsWith('/') ? operand : `${ctx.cwd}/${operand}`;
      if (
        await env.fs.lstat(path).then(
          () => true,
          () => false,
        )
      )
        present.push(operand);
    }
    if (present.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
    const kept = options
      .filter((a) => a !== '--force')
      .map((a) => (a.startsWith('--') ? a : a.replace(/f/g, '')))
      .filter((a) => a !== '-');
    return original([...kept, '--', ...present]);
  });
}
