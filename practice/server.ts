// The practice range: a real SSH server (ssh2) whose shell is just-bash, an in-memory simulated
// bash, so nothing a player types touches the host. Users bandit0…bandit21, passwords from the
// seeded world, public-key logins where a level hands out a key, exec and interactive shells.
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import ssh2 from 'ssh2';
import type { Connection, ServerChannel } from 'ssh2';
import { PRACTICE_LEVELS } from '../schema/levels.ts';
import { ConnectionGate, addressOf } from './connection-gate.ts';
import { CronDaemon } from './cron/cron-daemon.ts';
import { placeholderEnv, practiceCommands } from './commands/practice-shell.ts';
import { inOrder } from './exec/output-chunks.ts';
import { processSpawner } from './exec/process-spawner.ts';
import { WorkerPool } from './exec/worker-pool.ts';
import type { PoolSize } from './exec/worker-pool.ts';
import { FsHost } from './fs/fs-host.ts';
import { MemoryReturn } from './fs/memory-return.ts';
import { sweepWorld } from './fs/tmp-sweeper.ts';
import { PracticeSession, DEFAULT_LIMITS } from './session.ts';
import type { SessionLimits } from './session.ts';
import { GIT_SHELL_REFUSAL, startLogin } from './shell/login.ts';
import { Terminal } from './shell/terminal.ts';
import type { TerminalSize } from './shell/terminal.ts';
import { UpperShell } from './shell/upper-shell.ts';
import {
  GIT_SHELL,
  LAST_USER,
  SHOWTEXT,
  UPPERSHELL,
  loginIdentity,
  loginShell,
  passwordLevel,
} from './world/accounts.ts';
import { authenticate } from './login-check.ts';
import type { CommandLogEntry } from './command-log.ts';
import { buildWorld } from './world/world.ts';
import type { World } from './world/world.ts';
import { layOutWorld } from './world/world-fs.ts';
import { PLAYER_ENV, WORLD_ENV, WORLD_KEY } from './world/range-world.ts';
import type { RangeWorld } from './world/range-world.ts';
import { DEFAULT_BUDGET, WorldRegistry } from './world/world-registry.ts';
import type { WorldBudget } from './world/world-registry.ts';

/** Options for a range server. */
export type RangeOptions = {
  host: string;
  port: number;
  hostKey: string;
  seed: string;
  limits?: Partial<SessionLimits>;
  maxConnections?: number;
  /** Connections still logging in at once (default: maxConnections). */
  maxPending?: number;
  /** Connections from one source address at once (default: half of maxConnections). */
  maxConnectionsPerAddress?: number;
  /** When full, a login idle this long gives its place to another address's newcomer (default 10 s). */
  evictIdleMs?: number;
  /** How long a connection may take to log in before it is dropped (default 30 s). */
  authTimeoutMs?: number;
  idleTimeoutMs?: number;
  /**
   * Shell worker threads: kept warm and at most (default 2 and 16), and per source address the
   * commands running at once (default half of max) and waiting (default 64).
   */
  workers?: Partial<PoolSize>;
  /** How often cron's every-minute jobs run (default 60 s, as on a real host). */
  cronIntervalMs?: number;
  /** The store's budget for worlds (quota per user: limits.maxWrittenBytes). */
  worlds?: Partial<Omit<WorldBudget, 'perUserBytes'>>;
  /**
   * Source addresses that may ask for a private world (default loopback: the proxy beside the range).
   * A run's world key is its id, which viewers and links see, so no one else may name it.
   */
  privateWorldsFrom?: string[];
  /** /tmp entries untouched this long are removed (default 2 hours), checked every tmpSweepMs (10 min). */
  tmpMaxAgeMs?: number;
  tmpSweepMs?: number;
  /** Told of every exec request before its command runs (PRACTICE_COMMAND_LOG). */
  commandLog?: (entry: CommandLogEntry) => void;
};

/** A running range: its port, its world, and how to stop it. */
export type RunningRange = {
  port: number;
  world: World;
  /** Open TCP connections, logged in or not (tests check that clients reuse theirs). */
  connections: () => number;
  /** Logged-in connections, those still logging in, and idle logins closed to make room for another address. */
  connectionCounts: () => { admitted: number; pending: number; evicted: number };
  /** Shell worker threads, how many are running a command, and how many commands wait for one. */
  workerCounts: () => { workers: number; busy: number; waiting: number };
  /** Commands running and waiting per source address. */
  commandsByAddress: () => Record<string, { running: number; waiting: number }>;
  /** Rounds of the shared world's every-minute cron jobs finished so far. */
  cronRounds: () => number;
  /** The worlds now: the shared one first, then private ones (tests and benchmarks read their ledgers). */
  worlds: () => RangeWorld[];
  /** Full garbage collections run to hand back released memory. */
  memoryCollections: () => number;
  /** Runs the /tmp sweep now (tests), as the schedule would; returns the entries removed. */
  sweepTmp: (now?: number) => Promise<number>;
  /** Drops every open connection, as a network blip would; the range keeps listening. */
  dropConnections: () => void;
  close: () => Promise<void>;
};

/** ssh2's Connection has setNoDelay at run time; @types/ssh2 leaves it out. */
type TunableConnection = Connection & { setNoDelay(noDelay?: boolean): void };

/** Starts the range on options.host:options.port (0 picks a free port). */
export async function startRange(options: RangeOptions): Promise<RunningRange> {
  const world = buildWorld(options.seed);
  const commands = practiceCommands(placeholderEnv(world));
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  let port = options.port;
  const host = new FsHost();
  const max = options.workers?.max ?? 16;
  const pool = new WorkerPool(
    { seed: options.seed, maxOutputBytes: limits.maxOutputBytes, memoryMb: limits.maxMemoryMb },
    host,
    { warm: 2, max, runningPerAddress: Math.max(1, Math.floor(max / 2)), waitingPerAddress: 64, ...options.workers },
  );
  await pool.start();
  // `timeout`'s command runs as a process of its own: a job in another worker with its own time.
  host.spawner = processSpawner(pool, host, limits, () => port);
  const crons = new Map<RangeWorld, CronDaemon>();
  const memory = new MemoryReturn();
  const worlds = await WorldRegistry.start(
    () => layOutWorld(world, commands),
    { ...DEFAULT_BUDGET, ...options.worlds, perUserBytes: limits.maxWrittenBytes },
    new Set(world.nodes.map((node) => node.path)),
    memory,
    {
      created: async (made) => {
        const cron = new CronDaemon(made, host, pool, {
          intervalMs: options.cronIntervalMs ?? 60_000,
          // Long: a job mostly waits on the processes it starts (`timeout 60 ./script`), each with its own limit.
          timeoutMs: 10 * 60_000,
          cpuMs: limits.commandCpuMs,
        });
        crons.set(made, cron);
        await cron.start();
      },
      dropped: (gone) => {
        crons.get(gone)?.stop();
        crons.delete(gone);
      },
    },
  );
  const sweepTmp = async (now = Date.now()) => {
    worlds.dropIdle(now);
    let removed = 0;
    for (const each of worlds.worlds())
      removed += await sweepWorld(each, { maxAgeMs: options.tmpMaxAgeMs ?? 2 * 3_600_000 }, now);
    return removed;
  };
  const sweeper = setInterval(() => void sweepTmp(), options.tmpSweepMs ?? 10 * 60_000);
  sweeper.unref();
  // Each run holds one connection (two while proving a password); 256 leaves room for 100 runs.
  const maxConnections = options.maxConnections ?? 256;
  const gate = new ConnectionGate({
    maxConnections,
    maxPending: options.maxPending ?? maxConnections,
    maxPerAddress: options.maxConnectionsPerAddress ?? Math.max(1, Math.floor(maxConnections / 2)),
    authTimeoutMs: options.authTimeoutMs ?? 30_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 15 * 60_000,
    evictIdleMs: options.evictIdleMs ?? 10_000,
  });

  const privateWorldsFrom = new Set(options.privateWorldsFrom ?? ['127.0.0.1', '::1']);
  const ssh = new ssh2.Server(
    { hostKeys: [options.hostKey], ident: 'OpenSSH_9.6 bandit-runner-practice' },
    (client) => {
      (client as TunableConnection).setNoDelay(true);
      // ssh2 keeps the socket on a field its types leave out; the gate needs it to count the login.
      const socket = (client as unknown as { _sock: Socket })._sock;
      client.once('ready', () => gate.loggedIn(socket));
      const source = {
        address: addressOf(socket),
        busy: (running: boolean) => gate.busy(socket, running),
        touch: () => gate.touch(socket),
      };
      serveClient(client, {
        world,
        newSession: (sshPort) => new PracticeSession(worlds, host, pool, sshPort, limits, source),
        port: () => port,
        touch: source.touch,
        privateWorlds: privateWorldsFrom.has(source.address),
        logCommand: options.commandLog
          ? (user, world, command) =>
              options.commandLog?.({ at: new Date().toISOString(), address: source.address, user, world, command })
          : undefined,
      });
    },
  );
  const tcp = createServer((socket) => {
    socket.setNoDelay(true);
    if (gate.accept(socket)) ssh.injectSocket(socket);
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(options.port, options.host, () => resolve());
  });
  port = (tcp.address() as AddressInfo).port;
  return {
    port,
    world,
    connections: () => gate.sockets().length,
    connectionCounts: () => gate.counts(),
    workerCounts: () => pool.counts(),
    commandsByAddress: () => pool.byAddress(),
    cronRounds: () => crons.get(worlds.shared)?.rounds ?? 0,
    worlds: () => worlds.worlds(),
    memoryCollections: () => memory.collections,
    sweepTmp,
    dropConnections: () => {
      for (const socket of gate.sockets()) socket.destroy();
    },
    close: () =>
      new Promise((done) => {
        for (const socket of gate.sockets()) socket.destroy();
        for (const cron of crons.values()) cron.stop();
        clearInterval(sweeper);
        gate.close();
        memory.stop();
        pool.close();
        tcp.close(() => done());
      }),
  };
}

/** What serving one SSH client needs. */
type ClientContext = {
  world: World;
  newSession: (sshPort: number) => PracticeSession;
  port: () => number;
  /** Restarts the connection's idle clock. */
  touch: () => void;
  /**
   * Whether this client's address is the proxy's: it may ask for a private world (PRACTICE_WORLD) and name the
   * run each connection plays for (PRACTICE_PLAYER).
   */
  privateWorlds: boolean;
  logCommand?: (user: string, world: string, command: string) => void;
};

function serveClient(
  client: Connection,
  { world, newSession, port, touch, privateWorlds, logCommand }: ClientContext,
): void {
  let user = '';
  client.on('error', () => client.end());
  client.on('authentication', (ctx) => {
    if (authenticate(ctx, world)) {
      user = ctx.username;
      return ctx.accept();
    }
    ctx.reject(world.keys.has(ctx.username) ? ['publickey', 'password'] : ['password', 'publickey']);
  });
  client.on('ready', () => {
    const session = newSession(port());
    client.on('close', () => void session.close());
    client.on('session', (accept) => {
      const channel = accept();
      // A channel or a keystroke restarts the connection's idle clock; keep-alives do not.
      touch();
      let pty: TerminalSize | undefined;
      let terminal: Terminal | undefined;
      // A run that wants a world of its own names it before its exec or shell (PRACTICE_WORLD).
      let worldKey: string | undefined;
      let worldDenied: string | undefined;
      channel.on('pty', (acceptPty, _reject, info) => {
        pty = { rows: info.rows, cols: info.cols };
        acceptPty?.();
      });
      channel.on('env', (acceptEnv, rejectEnv, info) => {
        if (info.key === PLAYER_ENV) {
          if (!WORLD_KEY.test(info.val)) return rejectEnv?.();
          // Anyone else's name is ignored, as sshd ignores a variable its AcceptEnv leaves out: a client could
          // otherwise name a new player for each command and pass every per-address cap.
          if (privateWorlds) session.playFor(info.val);
          return acceptEnv?.();
        }
        if (info.key !== WORLD_ENV) return acceptEnv?.();
        if (!WORLD_KEY.test(info.val)) return rejectEnv?.();
        // A run's key is its id, which is no secret: only the proxy's address may name one.
        if (!privateWorlds) {
          worldDenied = `practice range: private worlds are given to the proxy's address only (PRACTICE_PRIVATE_WORLDS_FROM); connect without ${WORLD_ENV} to play in the shared world\n`;
          return acceptEnv?.();
        }
        worldKey = info.val;
        acceptEnv?.();
      });
      channel.on('window-change', (acceptChange, _reject, info) => {
        if (terminal) terminal.size = { rows: info.rows || terminal.size.rows, cols: info.cols || terminal.size.cols };
        acceptChange?.();
      });
      channel.on('exec', (acceptExec, _reject, info) => {
        const execChannel = acceptExec();
        if (worldDenied) return refuse(execChannel, worldDenied);
        logCommand?.(user, worldKey ?? 'shared', info.command);
        void session
          .enter(worldKey)
          .then((refused) =>
            refused ? refuse(execChannel, refused) : runExec(session, execChannel, user, info.command),
          );
      });
      channel.on('shell', (acceptShell) => {
        const shellChannel = acceptShell();
        shellChannel.on('data', touch);
        terminal = new Terminal(shellChannel, pty);
        const opened = terminal;
        if (worldDenied) return refuse(shellChannel, worldDenied);
        void session
          .enter(worldKey)
          .then((refused) => (refused ? refuse(shellChannel, refused) : openShell(session, opened, user)));
      });
    });
  });
}

/** Ends a channel with the range's reason, as a command that failed. */
function refuse(channel: ServerChannel, message: string): void {
  channel.stderr.write(message);
  channel.exit(1);
  channel.end();
}

async function runExec(session: PracticeSession, channel: ServerChannel, user: string, command: string): Promise<void> {
  const who = loginIdentity(user);
  // sshd hands the command to the login shell; the odd ones ignore it.
  const shell = loginShell(user);
  if (shell === SHOWTEXT) {
    channel.write((await session.readFile(who, `/home/${user}/text.txt`)) ?? '');
    channel.exit(0);
    channel.end();
    return;
  }
  if (shell === UPPERSHELL) {
    new UpperShell(new Terminal(channel, undefined), session, who);
    return;
  }
  if (shell === GIT_SHELL) {
    const verb = command.trim().split(/\s+/)[0] ?? '';
    channel.stderr.write(
      verb === 'git-upload-pack' || verb === 'git-receive-pack'
        ? 'fatal: the practice range serves its git repositories inside the range only: log in as the level user and clone from there\n'
        : command.trim()
          ? `fatal: unrecognized command '${command.trim()}'\n`
          : GIT_SHELL_REFUSAL,
    );
    channel.exit(128);
    channel.end();
    return;
  }
  const result = await session.run(who, command, { cwd: `/home/${user}` });
  // In the order the command wrote them, as the two pipes of a real sshd session carry them.
  for (const chunk of inOrder(result)) (chunk.stream === 'stdout' ? channel : channel.stderr).write(chunk.bytes);
  channel.exit(result.exitCode);
  channel.end();
}

async function openShell(session: PracticeSession, terminal: Terminal, user: string): Promise<void> {
  const who = loginIdentity(user);
  // Level 18's .bashrc throws interactive logins out, as on the real server.
  const bashrc = loginShell(user) === '/bin/bash' ? ((await session.readFile(who, `/home/${user}/.bashrc`)) ?? '') : '';
  if (/^\s*exit\b/m.test(bashrc)) {
    const echoed = /echo\s+"([^"]*)"/.exec(bashrc)?.[1];
    terminal.write(`${echoed ?? ''}\nConnection to practice closed.\n`);
    terminal.close(0);
    return;
  }
  const n = passwordLevel(user) ?? -1;
  const git = user.endsWith('-git');
  const level = git ? undefined : PRACTICE_LEVELS.find((l) => l.level === n);
  const closing =
    n === LAST_USER && !git ? 'You have reached the last level. Read README.txt in your home directory.\n' : '';
  const greeting = `\nbandit-runner practice range — you are ${user}.\n${level ? `Level ${n} → ${n + 1}: ${level.goal}\n` : closing}\n${terminal.pty ? '' : '(no terminal: line editing is off)\n'}\n`;
  startLogin(terminal, session, who, { greeting });
}
