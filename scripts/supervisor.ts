// Starts child programs with prefixed output and stops every one of them, with their own children,
// when asked or when the supervisor is interrupted. No orphans.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** `hide` drops lines of the child's output that nobody asked to see (counted in `hidden`). */
type Spec = { name: string; command: string; args: string[]; env: NodeJS.ProcessEnv; hide?: (line: string) => boolean };
type Child = Spec & { process: ChildProcess; exited: Promise<number | null> };

/** A set of long-running child processes started and stopped together. */
export class Supervisor {
  private readonly children: Child[] = [];
  private stopping = false;
  /** Lines of output dropped by a child's `hide`, all children together. */
  hidden = 0;
  private readonly onUnexpectedExit: (name: string, code: number | string | null) => void;

  constructor(onUnexpectedExit: (name: string, code: number | string | null) => void) {
    this.onUnexpectedExit = onUnexpectedExit;
  }

  /** Starts `command` in its own process group so that stop() reaches its descendants too. */
  start(
    name: string,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    options: { hide?: (line: string) => boolean } = {},
  ): void {
    this.launch({ name, command, args, env, ...options });
  }

  /** Starts `name` again after it exited, with what it was started with; false when it is still running. */
  restart(name: string): boolean {
    const index = this.children.findIndex((c) => c.name === name);
    const old = this.children[index];
    if (!old || this.stopping || (old.process.exitCode === null && old.process.signalCode === null)) return false;
    this.children.splice(index, 1);
    this.launch(old);
    return true;
  }

  /** The process id of a running child, or null. */
  pid(name: string): number | null {
    return this.children.find((c) => c.name === name)?.process.pid ?? null;
  }

  private launch(spec: Spec): void {
    const { name, command, args, env, hide } = spec;
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        if (hide?.(line)) this.hidden += 1;
        else console.log(`[${name}] ${line}`);
      });
    }
    const exited = new Promise<number | null>((resolve) => {
      child.on('exit', (code, signal) => {
        resolve(code);
        if (!this.stopping) this.onUnexpectedExit(name, code ?? signal);
      });
      child.on('error', (err) => {
        console.error(`[${name}] could not start: ${err.message}`);
        resolve(null);
      });
    });
    this.children.push({ ...spec, process: child, exited });
  }

  /** SIGTERM to every group, SIGKILL to any still alive after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    const alive = this.children.filter((c) => c.process.exitCode === null && c.process.signalCode === null);
    for (const child of alive) signalGroup(child.process, 'SIGTERM');
    const timer = setTimeout(() => alive.forEach((c) => signalGroup(c.process, 'SIGKILL')), graceMs);
    await Promise.all(alive.map((c) => c.exited));
    clearTimeout(timer);
    // Grandchildren (workerd under wrangler) may outlive their parent's exit by a moment.
    for (const child of this.children) signalGroup(child.process, 'SIGKILL');
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}
