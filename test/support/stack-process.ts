// Runs `node scripts/start.ts` — exactly what `npm start` runs — on free ports, for end-to-end tests.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './free-port.ts';
import { seedMigratedState } from './migrated-state.ts';

const root = join(import.meta.dirname, '../..');

/** A running stack started the way a person starts it. */
export type StackProcess = {
  url: string;
  pid: number;
  ports: { worker: number; proxy: number; practice: number };
  output: () => string;
  /** Sends SIGINT (Ctrl-C) and resolves with the exit code. */
  stop: () => Promise<number | null>;
};

/** Free ports for the three programs. */
export async function stackPorts() {
  return { worker: await freePort(), proxy: await freePort(), practice: await freePort() };
}

/**
 * Starts the stack and resolves once it prints that it is ready; rejects if it exits first. A state
 * directory with no state yet gets a migrated D1 (migrated-state.ts) unless `emptyState` asks for the
 * newcomer's start from nothing.
 */
export async function startStackProcess(
  stateDir: string,
  ports?: StackProcess['ports'],
  env: Record<string, string> = {},
  { emptyState = false }: { emptyState?: boolean } = {},
): Promise<StackProcess> {
  // Before the ports are picked: making the template the first time takes seconds, and a port picked
  // free must be bound soon after.
  if (!emptyState) seedMigratedState(stateDir);
  const p = ports ?? (await stackPorts());
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [join(root, 'scripts/start.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      WORKER_PORT: String(p.worker),
      PROXY_PORT: String(p.proxy),
      PRACTICE_PORT: String(p.practice),
      STATE_DIR: stateDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('bandit-runner is ready')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`the stack exited with code ${code} before it was ready:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${p.worker}`,
    pid: child.pid ?? 0,
    ports: p,
    output: () => output,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/**
 * A stack for one test file: started (on a fresh state directory) before its tests and stopped,
 * state removed, after them. Returns a getter, since the stack exists only once beforeAll has run.
 */
export function stackForFile(name: string, env: Record<string, string> = {}): () => StackProcess {
  const stateDir = mkdtempSync(join(tmpdir(), `bandit-runner-${name}-`));
  let stack: StackProcess | undefined;
  beforeAll(async () => {
    stack = await startStackProcess(stateDir, undefined, env);
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });
  return () => {
    if (!stack) throw new Error('the stack is not started yet; use it inside a test');
    return stack;
  };
}
