// A just-bash shell with the range's commands, for one identity: what every command line runs in.
import { Bash, getCommandNames } from 'just-bash';
import type { CommandName, CustomCommand } from 'just-bash';
import { archiveCommands } from './archive-commands.ts';
import type { CommandEnv } from './command-env.ts';
import { diffCommand } from './diff-command.ts';
import { findCommand } from './find-command.ts';
import { sortCommand } from './sort-command.ts';
import { cutCommand } from './cut-command.ts';
import { wcCommand } from './wc-command.ts';
import { trCommand } from './tr-command.ts';
import { gitCommand } from './git-command.ts';
import { grepCommand } from './grep-command.ts';
import { identityCommands } from './identity-commands.ts';
import { inspectCommands } from './inspect-commands.ts';
import { listCommands } from './list-commands.ts';
import { loginCommands } from './login-commands.ts';
import { networkCommands } from './network-commands.ts';
import { textCommands } from './text-commands.ts';
import { rmCommand } from './rm-command.ts';
import { timeoutCommand } from './timeout-command.ts';

/** Builtins that would reach outside the sandbox or are not part of a Bandit box. */
const EXCLUDED_BUILTINS = new Set(['curl', 'html-to-markdown', 'python', 'python3', 'js-exec', 'sqlite3']);

const BUILTINS = getCommandNames().filter((name) => !EXCLUDED_BUILTINS.has(name)) as CommandName[];

/** The range's own commands for a shell running with `env`. */
export function practiceCommands(env: CommandEnv): CustomCommand[] {
  return [
    ...identityCommands(env),
    ...listCommands(env),
    findCommand(env),
    diffCommand(env),
    sortCommand(env),
    cutCommand(env),
    wcCommand(env),
    trCommand,
    grepCommand(env, 'grep'),
    grepCommand(env, 'egrep'),
    grepCommand(env, 'fgrep'),
    ...inspectCommands(env),
    ...archiveCommands(env),
    ...networkCommands(env),
    ...loginCommands(env),
    ...textCommands(env),
    gitCommand(env),
    timeoutCommand(env),
    rmCommand(env),
  ];
}

/** Commands built only for their names (the stubs in /usr/bin), never run. */
export function placeholderEnv(world: CommandEnv['world']): CommandEnv {
  return {
    fs: undefined as never,
    world,
    session: { listeners: new Map<number, string>(), sshPort: 0 },
    runAs: async () => ({ stdout: '', stderr: '', exitCode: 1 }),
  };
}

/** A shell for `env.fs.who` in `cwd`, with just-bash's loop, call-depth and output limits. */
export function practiceShell(env: CommandEnv, cwd: string, maxOutputBytes: number): Bash {
  const who = env.fs.who;
  return new Bash({
    fs: env.fs,
    cwd,
    commands: BUILTINS,
    customCommands: practiceCommands(env),
    env: {
      USER: who.user,
      LOGNAME: who.user,
      HOME: `/home/${who.user}`,
      SHELL: '/bin/bash',
      HOSTNAME: 'practice',
      TERM: 'xterm-256color',
    },
    executionLimits: {
      maxOutputSize: maxOutputBytes * 4,
      maxCommandCount: 1_000_000,
      maxLoopIterations: 1_000_000,
      maxCallDepth: 50,
      maxStringLength: 8 * 1024 * 1024,
    },
  });
}
