// Who may hold a connection to the range. A new socket waits in a small pool of its own until it
// logs in, and is dropped if it has not within authTimeoutMs; only logged-in connections count
// against maxConnections. So sockets that connect and say nothing cannot lock the agents out.
import type { Socket } from 'node:net';

export type GateOptions = {
  /** Logged-in connections at once. */
  maxConnections: number;
  /** Connections still logging in at once. */
  maxPending: number;
  /** How long a connection may take to log in. */
  authTimeoutMs: number;
  /** How long a logged-in connection may stay silent. */
  idleTimeoutMs: number;
};

/** Admits, times and counts the range's TCP connections. */
export class ConnectionGate {
  private readonly pending = new Map<Socket, NodeJS.Timeout>();
  private readonly admitted = new Set<Socket>();
  private readonly options: GateOptions;

  constructor(options: GateOptions) {
    this.options = options;
  }

  /** Takes a new socket, or refuses it with a line the person's SSH client shows. */
  accept(socket: Socket): boolean {
    const { maxConnections, maxPending, authTimeoutMs, idleTimeoutMs } = this.options;
    // Said before the SSH version line, which SSH clients show to the person.
    if (this.admitted.size >= maxConnections) {
      socket.end(`practice range: too many connections (limit ${maxConnections}); try again shortly\r\n`);
      return false;
    }
    if (this.pending.size >= maxPending) {
      socket.end(`practice range: too many connections still logging in (limit ${maxPending}); try again shortly\r\n`);
      return false;
    }
    this.pending.set(
      socket,
      setTimeout(() => socket.destroy(), authTimeoutMs),
    );
    socket.setTimeout(idleTimeoutMs, () => socket.destroy());
    socket.on('close', () => this.forget(socket));
    socket.on('error', () => socket.destroy());
    return true;
  }

  /** A socket whose user logged in; false (and the socket is closed) when the cap is already full. */
  loggedIn(socket: Socket): boolean {
    const timer = this.pending.get(socket);
    if (timer === undefined) return this.admitted.has(socket);
    clearTimeout(timer);
    this.pending.delete(socket);
    if (this.admitted.size >= this.options.maxConnections) {
      socket.destroy();
      return false;
    }
    this.admitted.add(socket);
    return true;
  }

  /** Logged-in connections, then those still logging in. */
  counts(): { admitted: number; pending: number } {
    return { admitted: this.admitted.size, pending: this.pending.size };
  }

  /** Every open socket. */
  sockets(): Socket[] {
    return [...this.admitted, ...this.pending.keys()];
  }

  private forget(socket: Socket): void {
    clearTimeout(this.pending.get(socket));
    this.pending.delete(socket);
    this.admitted.delete(socket);
  }
}
