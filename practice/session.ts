// One SSH connection's shells: a just-bash shell per identity over the shared world, with the
// range's commands, per-command time and output limits, and a cap on commands per connection.
import { Bash } from 'just-bash';
import type { CommandName, CustomCommand, ExecResult } from 'just-bash';
import { getCommandNames } from 'just-bash';
import { archiveCommands } from './commands/archive-commands.ts';
import type { CommandEnv, SessionState } from './commands/command-env.ts';
import { findCommand } from './commands/find-command.ts';
import { grepCommand } from './commands/grep-command.ts';
import { identityCommands } from './commands/identity-commands.ts';
import { inspectCommands } from './commands/inspect-commands.ts';
import { listCommands } from './commands/list-commands.ts';
import { loginCommands } from './commands/login-commands.ts';
import { networkCommands } from './commands/network-commands.ts';
import { PermissionFs } from './fs/permission-fs.ts';
import type { DiskUsage } from './fs/permission-fs.ts';
import type { Identity } from './world/accounts.ts';
import type { World } from './world/world.ts';
import type { WorldFs } from './world/world-fs.ts';

/** Limits that keep one player from hurting the range or other players. */
export type SessionLimits = {
  commandTimeoutMs: number;
  /** Bytes one connection may write to the shared filesystem. */
  maxWrittenBytes: number;
  maxOutputBytes: number;
  maxCommandsPerConnection: number;
};

export const DEFAULT_LIMITS: SessionLimits = { commandTimeoutMs: 10_000, maxWrittenBytes: 32 * 1024 * 1024, maxOutputBytes: 1024 * 1024, maxCommandsPerConnection: 5_000 };

/** Builtins that would reach outside the sandbox or are not part of a Bandit box. */
const EXCLUDED_BUILTINS = new Set(['curl', 'html-to-markdown', 'python', 'python3', 'js-exec', 'sqlite3']);

const BUILTINS = getCommandNames().filter((name) => !EXCLUDED_BUILTINS.has(name)) as CommandName[];

/** The range's own commands for a shell running with `env`. */
export function practiceCommands(env: CommandEnv): CustomCommand[] {
  return [
    ...identityCommands(env),
    ...listCommands(env),
    findCommand(env),
    grepCommand('grep'),
    grepCommand('egrep'),
    grepCommand('fgrep'),
    ...inspectCommands(env),
    ...archiveCommands(env),
    ...networkCommands(env),
    ...loginCommands(env),
  ];
}

/** A command's result, after limits: exit 124 on timeout, output capped. */
export type CommandResult = { stdout: string; stderr: string; exitCode: number; env?: Record<string, string> };

export class PracticeSession {
  readonly state: SessionState;
  private readonly world: World;
  private readonly worldFs: WorldFs;
  private readonly limits: SessionLimits;
  private commandsRun = 0;
  private readonly usage: DiskUsage;

  constructor(world: World, worldFs: WorldFs, sshPort: number, limits: SessionLimits = DEFAULT_LIMITS) {
    this.world = world;
    this.worldFs = worldFs;
    this.limits = limits;
    this.state = { listeners: new Map(), sshPort };
    this.usage = { bytes: 0, limit: limits.maxWrittenBytes, created: new Set() };
  }

  /** Removes what this connection created, deepest first, as /tmp cleaning would. */
  async close(): Promise<void> {
    const paths = [...this.usage.created].sort((a, b) => b.length - a.length);
    for (const path of paths) await this.worldFs.fs.rm(path, { recursive: true, force: true }).catch(() => undefined);
    for (const path of paths) this.worldFs.owners.delete(path);
  }

  /** A shell for `who`, starting in `cwd`. */
  shellFor(who: Identity, cwd: string): Bash {
    const fs = new PermissionFs(this.worldFs.fs, this.worldFs.owners, who, this.usage);
    const env: CommandEnv = {
      fs,
      world: this.world,
      session: this.state,
      runAs: (other, command, stdin, dir) => this.run(this.shellFor(other, dir), command, stdin),
    };
    return new Bash({
      fs,
      cwd,
      commands: BUILTINS,
      customCommands: practiceCommands(env),
      env: { USER: who.user, LOGNAME: who.user, HOME: `/home/${who.user}`, SHELL: '/bin/bash', HOSTNAME: 'practice', TERM: 'xterm-256color' },
      executionLimits: { maxOutputSize: this.limits.maxOutputBytes * 4, maxCommandCount: 20_000, maxLoopIterations: 20_000, maxCallDepth: 50 },
    });
  }

  /** Runs one command line with the per-command limits; never throws. */
  async run(shell: Bash, command: string, stdin = '', state?: { cwd: string; env: Record<string, string> }): Promise<CommandResult> {
    if (++this.commandsRun > this.limits.maxCommandsPerConnection) {
      return { stdout: '', stderr: `practice range: this connection ran ${this.limits.maxCommandsPerConnection} commands, the most one connection may; reconnect\n`, exitCode: 1 };
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<CommandResult>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ stdout: '', stderr: `practice range: command timed out after ${this.limits.commandTimeoutMs / 1000} s\n`, exitCode: 124 });
      }, this.limits.commandTimeoutMs);
    });
    try {
      const result = await Promise.race([shell.exec(command, { stdin, signal: controller.signal, ...(state ? { cwd: state.cwd, env: state.env } : {}) }).then(toResult), timeout]);
      return this.capped(result);
    } catch (err) {
      return { stdout: '', stderr: `bash: ${err instanceof Error ? err.message : String(err)}\n`, exitCode: 1 };
    } finally {
      clearTimeout(timer);
    }
  }

  private capped(result: CommandResult): CommandResult {
    const cap = this.limits.maxOutputBytes;
    const cut = (s: string) => (s.length > cap ? `${s.slice(0, cap)}\n[practice range: output cut at ${cap} bytes]\n` : s);
    return { ...result, stdout: cut(result.stdout), stderr: cut(result.stderr) };
  }
}

function toResult(r: ExecResult): CommandResult {
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, ...(r.env ? { env: r.env } : {}) };
}
