// One world the range serves: the shared one every person plays in, or a private one a run asked
// for. Its filesystem, owners and disk ledger live as long as the world, not as long as a login.
import type { InMemoryFs } from 'just-bash';
import type { DiskLedger } from '../fs/disk-ledger.ts';
import type { OwnershipTable } from '../fs/ownership.ts';
import type { WorldFs } from './world-fs.ts';

/** The key a channel names with `PRACTICE_WORLD` for a private world; the shared world has none. */
export const WORLD_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** The SSH environment variable a channel sets to play in a private world. */
export const WORLD_ENV = 'PRACTICE_WORLD';

/**
 * The SSH environment variable the proxy sets to name the run a channel plays for (a key as WORLD_KEY): each
 * named run of a trusted address takes turns and meets the per-address caps as an address of its own would.
 */
export const PLAYER_ENV = 'PRACTICE_PLAYER';

export class RangeWorld implements WorldFs {
  /** undefined for the shared world. */
  readonly key: string | undefined;
  readonly fs: InMemoryFs;
  readonly owners: OwnershipTable;
  readonly ledger: DiskLedger;
  /** Paths the world was built with; the /tmp sweep leaves them alone (cron's level files). */
  readonly builtPaths: ReadonlySet<string>;
  private open = 0;
  private lastUsed = Date.now();

  constructor(key: string | undefined, laidOut: WorldFs, ledger: DiskLedger, builtPaths: ReadonlySet<string>) {
    this.key = key;
    this.fs = laidOut.fs;
    this.owners = laidOut.owners;
    this.ledger = ledger;
    this.builtPaths = builtPaths;
  }

  /** A login (or cron) starts using the world. */
  enter(): void {
    this.open++;
    this.lastUsed = Date.now();
  }

  /** A login ends; the world stays. */
  leave(): void {
    this.open = Math.max(0, this.open - 1);
    this.lastUsed = Date.now();
  }

  /** Logins in the world now. */
  get logins(): number {
    return this.open;
  }

  /** Milliseconds since the last login left (0 while one is in). */
  idleFor(now = Date.now()): number {
    return this.open > 0 ? 0 : now - this.lastUsed;
  }
}
