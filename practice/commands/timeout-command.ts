// `timeout DURATION COMMAND…` as GNU coreutils has it, with the command run as a process of its own:
// a job in another shell worker with its own time limit, so a command that never yields (a busy loop
// in a cron spool script) is stopped at its duration without stopping the shell that started it.
import { defineCommand, latin1FromBytes } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { fail } from './command-env.ts';
import { shellJoin } from './login-commands.ts';

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };
const TRY = "Try 'timeout --help' for more information.";
const SIGNALS: Record<string, number> = { HUP: 1, INT: 2, QUIT: 3, KILL: 9, USR1: 10, USR2: 12, TERM: 15 };

/** A signal by name (KILL, SIGKILL) or number; undefined when unknown. */
function signalNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  return SIGNALS[text.toUpperCase().replace(/^SIG/, '')];
}

/** GNU's DURATION: a number with an optional s, m, h or d; undefined when it is not one. */
export function durationSeconds(text: string): number | undefined {
  const match = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(text);
  return match ? Number(match[1]) * UNITS[match[2]!]! : undefined;
}

export function timeoutCommand(env: CommandEnv) {
  return defineCommand('timeout', async (args, ctx) => {
    let signal = 15;
    let preserve = false;
    let i = 0;
    for (; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--') {
        i++;
        break;
      }
      if (arg === '--preserve-status') preserve = true;
      else if (arg === '--foreground' || arg === '-v' || arg === '--verbose') continue;
      else if (arg === '-s' || arg === '--signal' || arg.startsWith('--signal=') || /^-s./.test(arg)) {
        const name = arg === '-s' || arg === '--signal' ? (args[++i] ?? '') : arg.replace(/^(--signal=|-s)/, '');
        const number = signalNumber(name);
        if (number === undefined) return fail(`timeout: ‘${name}’: invalid signal\n${TRY}`, 125);
        signal = number;
      } else if (arg === '-k' || arg === '--kill-after') i++;
      else if (arg.startsWith('--kill-after=') || /^-k./.test(arg)) continue;
      else if (arg.startsWith('-') && arg.length > 1 && !/^\d/.test(arg.slice(1)))
        return fail(`timeout: invalid option -- '${arg.slice(1)[0]}'\n${TRY}`, 125);
      else break;
    }
    const [duration, ...command] = args.slice(i);
    // GNU's timeout says only this when an operand is missing.
    if (duration === undefined || command.length === 0) return fail(TRY, 125);
    const seconds = durationSeconds(duration);
    if (seconds === undefined) return fail(`timeout: invalid time interval ‘${duration}’\n${TRY}`, 125);
    const result = await env.fs.spawn(shellJoin(command), latin1FromBytes(ctx.stdin), ctx.cwd, seconds * 1000);
    if (!result.timedOut) return result;
    // GNU's status: 124 when the command timed out, 128+9 when it was sent KILL; --preserve-status keeps 128+signal.
    const exitCode = preserve || signal === 9 ? 128 + signal : 124;
    return { stdout: result.stdout, stderr: result.stderr, exitCode };
  });
}
