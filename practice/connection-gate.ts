// Who may hold a connection to the range. A new socket waits in a small pool of its own until it
// logs in, and is dropped if it has not within authTimeoutMs; only logged-in connections count
// against maxConnections, so sockets that connect and say nothing cannot lock the agents out. One
// source address may hold only maxPerAddress connections, and when the range is full a newcomer from
// another address takes the place of the longest-idle login of the address that holds the most. A
// login is idle when it runs no command and types nothing: SSH keep-alives do not count.
import type { Socket } from 'node:net';

export type GateOptions = {
  /** Logged-in connections at once. */
  maxConnections: number;
  /** Connections still logging in at once. */
  maxPending: number;
  /** Connections (logged in or logging in) from one source address at once. */
  maxPerAddress: number;
  /** How long a connection may take to log in. */
  authTimeoutMs: number;
  /** How long a logged-in connection may go without a command or a keystroke. */
  idleTimeoutMs: number;
  /** A login idle at least this long may give its place to another address's newcomer. */
  evictIdleMs: number;
};

type Admitted = { address: string; lastActive: number; running: number };

/** Admits, times and counts the range's TCP connections. */
export class ConnectionGate {
  private readonly pending = new Map<Socket, NodeJS.Timeout>();
  private readonly admitted = new Map<Socket, Admitted>();
  private readonly perAddress = new Map<string, number>();
  private readonly options: GateOptions;
  private readonly sweeper: NodeJS.Timeout;
  private evictions = 0;

  constructor(options: GateOptions) {
    this.options = options;
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(30_000, Math.max(50, options.idleTimeoutMs / 4)));
    this.sweeper.unref();
  }

  /** Takes a new socket, or refuses it with a line the person's SSH client shows. */
  accept(socket: Socket): boolean {
    const { maxConnections, maxPending, maxPerAddress, authTimeoutMs } = this.options;
    const address = addressOf(socket);
    // Said before the SSH version line, which SSH clients show to the person.
    if ((this.perAddress.get(address) ?? 0) >= maxPerAddress) {
      socket.end(
        `practice range: too many connections from your address (limit ${maxPerAddress}); close some and try again\r\n`,
      );
      return false;
    }
    // Only a login makes room (loggedIn): a socket that never logs in must not close anyone's.
    if (this.admitted.size >= maxConnections && !this.roomFor(address)) {
      socket.end(`practice range: too many connections (limit ${maxConnections}); try again shortly\r\n`);
      return false;
    }
    if (this.pending.size >= maxPending) {
      socket.end(`practice range: too many connections still logging in (limit ${maxPending}); try again shortly\r\n`);
      return false;
    }
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    this.pending.set(
      socket,
      setTimeout(() => socket.destroy(), authTimeoutMs),
    );
    socket.once('close', () => this.forget(socket, address));
    socket.on('error', () => socket.destroy());
    return true;
  }

  /** A socket whose user logged in; false (and the socket is closed) when the range is full. */
  loggedIn(socket: Socket): boolean {
    const timer = this.pending.get(socket);
    if (timer === undefined) return this.admitted.has(socket);
    clearTimeout(timer);
    this.pending.delete(socket);
    const address = addressOf(socket);
    if (this.admitted.size >= this.options.maxConnections && !this.evictFor(address)) {
      socket.destroy();
      return false;
    }
    this.admitted.set(socket, { address, lastActive: Date.now(), running: 0 });
    return true;
  }

  /** The connection did something (a channel, a keystroke): its idle clock starts again. */
  touch(socket: Socket): void {
    const entry = this.admitted.get(socket);
    if (entry) entry.lastActive = Date.now();
  }

  /** A command starts or ends on the connection; a connection running one is never idle. */
  busy(socket: Socket, running: boolean): void {
    const entry = this.admitted.get(socket);
    if (!entry) return;
    entry.running = Math.max(0, entry.running + (running ? 1 : -1));
    entry.lastActive = Date.now();
  }

  /** Logged-in connections, those still logging in, and logins closed to make room for another address. */
  counts(): { admitted: number; pending: number; evicted: number } {
    return { admitted: this.admitted.size, pending: this.pending.size, evicted: this.evictions };
  }

  /** Every open socket. */
  sockets(): Socket[] {
    return [...this.admitted.keys(), ...this.pending.keys()];
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  /** Whether a login from `newcomer` could take an idle login's place now. */
  private roomFor(newcomer: string): boolean {
    return this.idleLoginFor(newcomer) !== undefined;
  }

  /** The range is full: closes the login idleLoginFor picks; true when a place was made. */
  private evictFor(newcomer: string): boolean {
    const victim = this.idleLoginFor(newcomer);
    if (!victim) return false;
    this.admitted.delete(victim);
    victim.destroy();
    this.evictions++;
    return true;
  }

  /**
   * The longest-idle login of the address holding the most logins, if that is another address than
   * the newcomer's and holds more than it.
   */
  private idleLoginFor(newcomer: string): Socket | undefined {
    const counts = new Map<string, number>();
    for (const entry of this.admitted.values()) counts.set(entry.address, (counts.get(entry.address) ?? 0) + 1);
    let largest: string | undefined;
    for (const [address, n] of counts) if (largest === undefined || n > (counts.get(largest) ?? 0)) largest = address;
    if (largest === undefined || largest === newcomer) return undefined;
    if ((counts.get(largest) ?? 0) <= (counts.get(newcomer) ?? 0) + 1) return undefined;
    const now = Date.now();
    let victim: [Socket, Admitted] | undefined;
    for (const pair of this.admitted) {
      const [, entry] = pair;
      if (entry.address !== largest || entry.running > 0 || now - entry.lastActive < this.options.evictIdleMs) continue;
      if (!victim || entry.lastActive < victim[1].lastActive) victim = pair;
    }
    return victim?.[0];
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const [socket, entry] of this.admitted)
      if (entry.running === 0 && now - entry.lastActive >= this.options.idleTimeoutMs) socket.destroy();
  }

  private forget(socket: Socket, address: string): void {
    clearTimeout(this.pending.get(socket));
    this.pending.delete(socket);
    this.admitted.delete(socket);
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
  }
}

/** The socket's source address ('::ffff:' folded, so one client has one address). */
export function addressOf(socket: Socket): string {
  return (socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
}
