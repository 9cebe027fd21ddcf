// The practice range: a real SSH server (ssh2) whose shell is just-bash, an in-memory simulated
// bash, so nothing a player types touches the host. This is the minimal range: bandit0 only.
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Bash } from 'just-bash';
import ssh2 from 'ssh2';
import type { Connection, ServerChannel } from 'ssh2';

/** Options for a range server. */
export type RangeOptions = { host: string; port: number; hostKey: string };

/** A running range: its port and how to stop it. */
export type RunningRange = { port: number; close: () => Promise<void> };

const USERS: Record<string, string> = { bandit0: 'bandit0' };
const COMMAND_TIMEOUT_MS = 5_000;

/** Starts the range on options.host:options.port (0 picks a free port). */
export function startRange(options: RangeOptions): Promise<RunningRange> {
  const server = new ssh2.Server({ hostKeys: [options.hostKey], banner: 'bandit-runner practice range' }, (client) =>
    serveClient(client),
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      resolve({ port, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** ssh2's Connection has setNoDelay at run time; @types/ssh2 leaves it out. */
type TunableConnection = Connection & { setNoDelay(noDelay?: boolean): void };

function serveClient(client: Connection): void {
  // Without this, Nagle's algorithm adds ~40 ms to every exec on loopback.
  (client as TunableConnection).setNoDelay(true);
  let user: string | null = null;
  client.on('error', () => client.end());
  client.on('authentication', (ctx) => {
    const expected = USERS[ctx.username];
    if (ctx.method === 'password' && expected !== undefined && sameSecret(ctx.password, expected)) {
      user = ctx.username;
      return ctx.accept();
    }
    ctx.reject(['password']);
  });
  client.on('ready', () => {
    const shell = new Bash({
      files: { [`/home/${user}/readme`]: 'Welcome to the practice range. The levels arrive with the range itself.\n' },
      cwd: `/home/${user}`,
      env: { USER: user ?? '', HOME: `/home/${user}` },
    });
    client.on('session', (accept) => {
      const session = accept();
      session.on('exec', (acceptExec, _reject, info) => void runExec(shell, acceptExec(), info.command));
      session.on('pty', (acceptPty) => acceptPty());
      session.on('shell', (acceptShell) => runShell(shell, acceptShell(), user ?? ''));
    });
  });
}

async function runExec(shell: Bash, channel: ServerChannel, command: string): Promise<void> {
  const result = await execGuarded(shell, command);
  channel.write(result.stdout);
  channel.stderr.write(result.stderr);
  channel.exit(result.exitCode);
  channel.end();
}

/** A line-at-a-time interactive shell with a prompt. */
function runShell(shell: Bash, channel: ServerChannel, user: string): void {
  const prompt = `${user}@practice:~$ `;
  let line = '';
  let busy = Promise.resolve();
  channel.write(prompt);
  channel.on('data', (data: Buffer) => {
    for (const ch of data.toString('utf8')) {
      if (ch === '\r' || ch === '\n') {
        const command = line.trim();
        line = '';
        channel.write('\r\n');
        busy = busy.then(async () => {
          if (command === 'exit' || command === 'logout') return void channel.close();
          if (command) {
            const result = await execGuarded(shell, command);
            channel.write((result.stdout + result.stderr).replace(/\r?\n/g, '\r\n'));
          }
          channel.write(prompt);
        });
      } else if (ch === '\u007f') {
        if (line) channel.write('\b \b');
        line = line.slice(0, -1);
      } else if (ch === '\u0004' && !line) {
        channel.close();
      } else if (ch >= ' ') {
        line += ch;
        channel.write(ch);
      }
    }
  });
}

/** Runs one command with a time limit; a failure inside just-bash becomes exit code 1. */
async function execGuarded(shell: Bash, command: string) {
  try {
    return await shell.exec(command, { signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS) });
  } catch (err) {
    return { stdout: '', stderr: `${err instanceof Error ? err.message : String(err)}\n`, exitCode: 1 };
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
