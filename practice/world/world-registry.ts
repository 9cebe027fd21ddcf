// The worlds the range serves: one shared world, as players share the real server, and private
// worlds that runs ask for by key (PRACTICE_WORLD), each made on first use from the same seed and kept
// across reconnects until no login has used it for a while. Every world's disk quota is reserved in
// one store budget up front, so no world, user or login can take another's room: a private world
// that does not fit is refused at the door, with a message, instead of failing writes later.
import { DiskLedger } from '../fs/disk-ledger.ts';
import type { MemoryReturn } from '../fs/memory-return.ts';
import { allUsers } from './accounts.ts';
import { RangeWorld } from './range-world.ts';
import type { WorldFs } from './world-fs.ts';

/** How the store is shared out. */
export type WorldBudget = {
  /** Bytes one user may keep in one world (a Unix quota). */
  perUserBytes: number;
  /** Bytes a private world may keep in all (its users together). */
  privateWorldBytes: number;
  /** The whole store: the shared world's quotas and every private world's reservation fit inside. */
  storeBytes: number;
  /** A private world no login has used for this long is dropped with its files. */
  privateIdleMs: number;
  /** Kept out of every world's reservation: room for the logins themselves (SSH buffers, sessions). */
  loginReserveBytes: number;
};

export const DEFAULT_BUDGET: WorldBudget = {
  perUserBytes: 8 * 1024 * 1024,
  privateWorldBytes: 8 * 1024 * 1024,
  storeBytes: 1024 * 1024 * 1024,
  privateIdleMs: 6 * 60 * 60_000,
  loginReserveBytes: 64 * 1024 * 1024,
};

/** What a private world's own files take before anyone writes (measured: 1.2 MiB), with room to spare. */
const WORLD_BASE_BYTES = 2 * 1024 * 1024;

/** A private world dropped to make room must have been left alone at least this long. */
const EVICTABLE_AFTER_MS = 60_000;

/** Hooks for what runs beside each world (its cron daemon). */
export type WorldHooks = { created: (world: RangeWorld) => Promise<void>; dropped: (world: RangeWorld) => void };

export class WorldRegistry {
  readonly shared: RangeWorld;
  /** How many private worlds fit in the store beside the shared one. */
  readonly maxPrivate: number;
  private readonly privates = new Map<string, RangeWorld>();
  private readonly making = new Map<string, Promise<RangeWorld | { refused: string }>>();
  private readonly layOut: () => Promise<WorldFs>;
  private readonly budget: WorldBudget;
  private readonly builtPaths: ReadonlySet<string>;
  private readonly memory: MemoryReturn;
  private readonly hooks: WorldHooks;

  private constructor(
    shared: RangeWorld,
    layOut: () => Promise<WorldFs>,
    budget: WorldBudget,
    builtPaths: ReadonlySet<string>,
    memory: MemoryReturn,
    hooks: WorldHooks,
  ) {
    this.shared = shared;
    this.layOut = layOut;
    this.budget = budget;
    this.builtPaths = builtPaths;
    this.memory = memory;
    this.hooks = hooks;
    this.maxPrivate = Math.floor(
      (budget.storeBytes - budget.loginReserveBytes - sharedWorldBytes(budget)) /
        (budget.privateWorldBytes + WORLD_BASE_BYTES),
    );
  }

  /** Lays out the shared world; throws when the budget cannot hold even its quotas. */
  static async start(
    layOut: () => Promise<WorldFs>,
    budget: WorldBudget,
    builtPaths: ReadonlySet<string>,
    memory: MemoryReturn,
    hooks: WorldHooks,
  ): Promise<WorldRegistry> {
    const shared = sharedWorldBytes(budget);
    if (shared + budget.loginReserveBytes > budget.storeBytes)
      throw new Error(
        `practice range: the store (${mib(budget.storeBytes)}) cannot hold the shared world's quotas ` +
          `(${allUsers().length} users × ${mib(budget.perUserBytes)} = ${mib(shared)}) and the logins' ` +
          `${mib(budget.loginReserveBytes)}; raise the store or lower the quota`,
      );
    const ledger = new DiskLedger({ perUserBytes: budget.perUserBytes, worldBytes: shared }, (n) => memory.note(n));
    const world = new RangeWorld(undefined, await layOut(), ledger, builtPaths);
    await hooks.created(world);
    return new WorldRegistry(world, layOut, budget, builtPaths, memory, hooks);
  }

  /** The world a login plays in: the shared one without a key, else that key's, made on first use. */
  async open(key?: string): Promise<RangeWorld | { refused: string }> {
    if (key === undefined) return this.shared;
    const known = this.privates.get(key);
    if (known) return known;
    let made = this.making.get(key);
    if (!made) {
      made = this.make(key).finally(() => this.making.delete(key));
      this.making.set(key, made);
    }
    return made;
  }

  /** Every world now, the shared one first. */
  worlds(): RangeWorld[] {
    return [this.shared, ...this.privates.values()];
  }

  /** Drops private worlds nobody has used for `privateIdleMs`. */
  dropIdle(now = Date.now()): void {
    for (const world of [...this.privates.values()]) {
      if (world.logins === 0 && world.idleFor(now) >= this.budget.privateIdleMs) this.drop(world);
    }
  }

  private async make(key: string): Promise<RangeWorld | { refused: string }> {
    // A world being made is in `making` until its cron has started, and in `privates` from its lay-out on.
    const underWay = [...this.making.keys()].filter((other) => !this.privates.has(other)).length;
    if (this.privates.size + underWay >= this.maxPrivate && !this.evictOne()) {
      return {
        refused:
          `practice range: no room for another private world (${this.privates.size} in use, the most this range ` +
          'keeps); try again later, or play in the shared world (without PRACTICE_WORLD)',
      };
    }
    const ledger = new DiskLedger(
      { perUserBytes: this.budget.perUserBytes, worldBytes: this.budget.privateWorldBytes },
      (n) => this.memory.note(n),
    );
    const world = new RangeWorld(key, await this.layOut(), ledger, this.builtPaths);
    this.privates.set(key, world);
    await this.hooks.created(world);
    return world;
  }

  /** Makes room by dropping the private world left alone longest, if one has been for a minute. */
  private evictOne(): boolean {
    const idle = [...this.privates.values()]
      .filter((w) => w.logins === 0 && w.idleFor() >= EVICTABLE_AFTER_MS)
      .sort((a, b) => b.idleFor() - a.idleFor())[0];
    if (!idle) return false;
    this.drop(idle);
    return true;
  }

  private drop(world: RangeWorld): void {
    if (world.key === undefined) return;
    this.privates.delete(world.key);
    this.hooks.dropped(world);
    this.memory.note(world.ledger.used() + WORLD_BASE_BYTES);
  }
}

/** The shared world's reservation: every user's quota. */
function sharedWorldBytes(budget: WorldBudget): number {
  return allUsers().length * budget.perUserBytes;
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
