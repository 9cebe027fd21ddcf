// Keeps each run's current SSH session between proxy calls, so a run that yields and comes back
// reuses its login. It is only a cache: a fresh proxy process logs in again and loses nothing.
import type { GameTarget } from '../targets/target.ts';
import type { Connected, ExecResult, SessionOptions } from './ssh-session.ts';
import { SshSession } from './ssh-session.ts';
import type { SshFailure } from './ssh-failure.ts';

export type PoolOptions = {
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  maxOutputBytes: number;
  idleMs: number;
};

/** What the graph's nodes use: log in as a level, and run commands there. */
export type LevelShell = {
  /** Logs in as `level` with `password`; on success this login becomes the run's session. */
  login(level: number, password: string, signal: AbortSignal): Promise<Connected>;
  exec(
    level: number,
    password: string,
    command: string,
    signal: AbortSignal,
  ): Promise<ExecResult | { ok: false; failure: SshFailure }>;
};

export class SessionPool {
  private readonly sessions = new Map<string, SshSession>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly options: PoolOptions;

  constructor(options: PoolOptions) {
    this.options = options;
    this.sweeper = setInterval(() => this.sweep(), Math.max(1_000, options.idleMs / 2));
    this.sweeper.unref();
  }

  /** The shell for one run on one target, in the private world `world` names (its key), or the shared one. */
  shellFor(runId: string, target: GameTarget, world?: string): LevelShell {
    const loginAs = (level: number, password: string): Login => ({
      host: target.host,
      port: target.port,
      username: target.username(level),
      password,
      ...(world === undefined ? {} : { world }),
      // The real server is not told: the name is for the practice range's turns, which trust the proxy's address.
      ...(target.name === 'practice' ? { player: runId } : {}),
    });
    return {
      login: async (level, password, signal) => {
        const current = this.sessions.get(runId);
        const options = loginAs(level, password);
        if (current && sameLogin(current, options)) return current.connect(signal);
        const session = new SshSession({ ...options, connectTimeoutMs: this.options.connectTimeoutMs });
        const result = await session.connect(signal);
        if (!result.ok) {
          session.close();
          return result;
        }
        this.replace(runId, session);
        return result;
      },
      exec: async (level, password, command, signal) => {
        const options = loginAs(level, password);
        let session = this.sessions.get(runId);
        if (!session || !sameLogin(session, options)) {
          session = new SshSession({ ...options, connectTimeoutMs: this.options.connectTimeoutMs });
          this.replace(runId, session);
        }
        return session.exec(command, {
          timeoutMs: this.options.commandTimeoutMs,
          maxBytes: this.options.maxOutputBytes,
          signal,
        });
      },
    };
  }

  /** Closes a run's session (it finished or stopped). */
  release(runId: string): void {
    this.sessions.get(runId)?.close();
    this.sessions.delete(runId);
  }

  get size(): number {
    return this.sessions.size;
  }

  closeAll(): void {
    clearInterval(this.sweeper);
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }

  private replace(runId: string, session: SshSession): void {
    const old = this.sessions.get(runId);
    if (old && old !== session) old.close();
    this.sessions.set(runId, session);
  }

  private sweep(): void {
    const cutoff = Date.now() - this.options.idleMs;
    for (const [runId, session] of this.sessions) {
      if (session.lastUsed < cutoff) this.release(runId);
    }
  }
}

/** Who a session logs in as, and in which world. */
type Login = Omit<SessionOptions, 'connectTimeoutMs'>;

function sameLogin(session: SshSession, o: Login): boolean {
  const s = session.options;
  return (
    s.host === o.host &&
    s.port === o.port &&
    s.username === o.username &&
    s.password === o.password &&
    s.world === o.world &&
    s.player === o.player
  );
}
