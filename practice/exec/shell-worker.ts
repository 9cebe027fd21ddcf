// A shell worker: runs command lines for any connection, one at a time, in its own thread, so that
// a command that keeps the CPU busy holds up only this thread, which the main thread can cut off.
// The world's filesystem stays in the main thread (RemoteFs); the world's services, keys and
// passwords are rebuilt here from the same seed.
import { parentPort, workerData } from 'node:worker_threads';
import { Bash, InMemoryFs } from 'just-bash';
import type { CommandEnv, SessionState } from '../commands/command-env.ts';
import { practiceCommands, practiceShell, placeholderEnv } from '../commands/practice-shell.ts';
import { RemoteFs, isCommandStub } from '../fs/remote-fs.ts';
import type { FsCall } from '../fs/remote-fs.ts';
import type { Identity } from '../world/accounts.ts';
import { buildWorld } from '../world/world.ts';
import type { FromWorker, JobResult, ShellJob, ToWorker } from './shell-job.ts';
import { ownThreadId } from './thread-clock.ts';
import { byStream } from './output-chunks.ts';
import { TerminalOutput } from './terminal-output.ts';

const port = parentPort;
if (!port) throw new Error('shell-worker.ts runs as a worker thread');
const { seed, maxOutputBytes } = workerData as { seed: string; maxOutputBytes: number };

// One bad command (just-bash can reject a promise nobody awaits) must not end the worker.
process.on('unhandledRejection', () => undefined);

const threadId = ownThreadId();
const world = buildWorld(seed);
// The same /bin and /usr/bin stubs as the shared world has (layOutWorld), for RemoteFs to read locally.
const paths = new InMemoryFs();
new Bash({ fs: paths, customCommands: practiceCommands(placeholderEnv(world)), cwd: '/' });
// The world's own files there (cron's scripts, showtext) must be seen too: RemoteFs answers exists
// and stat for these paths from this copy, and reads their content, permission-checked, remotely.
for (const node of world.nodes) {
  if (node.kind !== 'file' || !isCommandStub(node.path)) continue;
  await paths.writeFile(node.path, node.content ?? '');
  await paths.chmod(node.path, node.mode);
}
const calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
const questions = new Map<number, (answer: string | null) => void>();
let nextCall = 0;

const post = (message: FromWorker) => port.postMessage(message);

function fsCall(connection: number): FsCall {
  return (who, op, args) =>
    new Promise((resolve, reject) => {
      const id = nextCall++;
      calls.set(id, { resolve, reject });
      post({ type: 'fs', id, connection, who, op, args });
    });
}

async function run(job: ShellJob): Promise<JobResult> {
  let opened: Identity | undefined;
  const state: SessionState = { listeners: new Map(job.listeners), sshPort: job.sshPort };
  if (job.interactive) {
    state.openShell = (other) => {
      opened = other;
      return `Welcome, ${other.user}. Type exit to return to ${job.who.user}.\n`;
    };
  }
  const call = fsCall(job.connection);
  const shellFor = (who: Identity, cwd: string, terminal?: TerminalOutput) => {
    const env: CommandEnv = {
      fs: new RemoteFs(who, call, paths, terminal && ((...write) => terminal.write(...write))),
      world,
      session: state,
      runAs: (other, command, stdin, dir) => shellFor(other, dir).exec(command, { stdin }),
      ...(job.canAsk ? { ask } : {}),
    };
    const shell = practiceShell(env, cwd, maxOutputBytes);
    if (terminal) shell.registerTransformPlugin(terminal.plugin());
    return shell;
  };
  const terminal = new TerminalOutput(maxOutputBytes);
  try {
    const r = await shellFor(job.who, job.cwd, terminal).exec(job.command, {
      stdin: job.stdin,
      ...(job.env ? { cwd: job.cwd, env: job.env } : {}),
    });
    return {
      ...byStream(terminal.output(r)),
      exitCode: r.exitCode,
      ...(r.env ? { env: r.env } : {}),
      listeners: [...state.listeners],
      ...(opened ? { openShell: opened } : {}),
    };
  } catch (err) {
    return {
      ...byStream(
        terminal.output({ stdout: '', stderr: `bash: ${err instanceof Error ? err.message : String(err)}\n` }),
      ),
      exitCode: 1,
      listeners: [...state.listeners],
    };
  }
}

/** A password prompt for the person at the terminal, answered through the main thread. */
function ask(prompt: string): Promise<string | null> {
  return new Promise((resolve) => {
    const id = nextCall++;
    questions.set(id, resolve);
    post({ type: 'ask', id, prompt });
  });
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'ask-reply') {
    questions.get(message.id)?.(message.answer);
    questions.delete(message.id);
  } else if (message.type === 'fs-reply') {
    const pending = calls.get(message.id);
    calls.delete(message.id);
    if (!pending) return;
    if (message.error) pending.reject(Object.assign(new Error(message.error.message), message.error));
    else pending.resolve(message.value);
  } else if (message.type === 'exec') {
    void run(message.job).then((result) => post({ type: 'done', id: message.id, result }));
  }
});
post({ type: 'ready', ...(threadId === undefined ? {} : { tid: threadId }) });
