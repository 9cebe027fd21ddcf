// grep with -a/--text: just-bash's grep already searches binary data as text, but refuses the flag
// Bandit players reach for, so strip it and hand over to the built-in grep.
import { defineCommand } from 'just-bash';
import { fail } from './command-env.ts';

export function grepCommand(name: 'grep' | 'egrep' | 'fgrep') {
  return defineCommand(name, async (args, ctx) => {
    const cleaned: string[] = [];
    let options = true;
    for (const arg of args) {
      if (options && arg === '--') options = false;
      if (options && (arg === '-a' || arg === '--text' || arg === '--binary-files=text')) continue;
      if (options && /^-[A-Za-z]*a[A-Za-z]*$/.test(arg) && !/^-[A-Za-z]*[efmABCd]/.test(arg)) {
        cleaned.push(arg.replace('a', ''));
        continue;
      }
      cleaned.push(arg);
    }
    if (!ctx.origCommand) return fail(`${name}: not available`, 2);
    return ctx.origCommand(cleaned.filter((a) => a !== '-'));
  });
}
