// What each user keeps in one world, charged as Unix disk quotas charge a file's owner: the charge
// stays with the file across logouts and goes back when anyone removes it, so a quota holds across
// connections, and a world's total stays inside what the range reserved for it (WorldRegistry).

/** Per-user and whole-world byte limits for one world. */
export type LedgerLimits = { perUserBytes: number; worldBytes: number };

/** What a new directory entry (file, directory, link) costs, so that empty files are not free. */
export const ENTRY_BYTES = 1024;

type Entry = { account: string; bytes: number };

export class DiskLedger {
  private readonly entries = new Map<string, Entry>();
  private readonly accounts = new Map<string, number>();
  private readonly limits: LedgerLimits;
  private readonly onRelease: (bytes: number) => void;
  private total = 0;

  /** `onRelease` hears of every refund, so the range can hand large releases back to the system. */
  constructor(limits: LedgerLimits, onRelease: (bytes: number) => void = () => undefined) {
    this.limits = limits;
    this.onRelease = onRelease;
  }

  /** Bytes charged to `account` (a user), or to the whole world. */
  used(account?: string): number {
    return account === undefined ? this.total : (this.accounts.get(account) ?? 0);
  }

  /** The account a path's bytes are charged to, if it was charged at all. */
  accountOf(path: string): string | undefined {
    return this.entries.get(path)?.account;
  }

  /**
   * Charges `bytes` for `path` to `account` (negative gives bytes back, never below what the path was
   * charged). Past the user's quota: EDQUOT, as Linux says it; past the world's: ENOSPC.
   */
  charge(account: string, path: string, bytes: number): void {
    const entry = this.entries.get(path);
    const delta = Math.max(bytes, -(entry?.bytes ?? 0));
    if (delta > 0) {
      if (this.used(account) + delta > this.limits.perUserBytes) throw quotaError('EDQUOT', path);
      if (this.total + delta > this.limits.worldBytes) throw quotaError('ENOSPC', path);
    }
    const holder = entry?.account ?? account;
    this.entries.set(path, { account: holder, bytes: (entry?.bytes ?? 0) + delta });
    this.adjust(holder, delta);
  }

  /** Gives back what was charged for `path` and everything below it. */
  refund(path: string): void {
    let released = 0;
    for (const [charged, entry] of [...this.entries]) {
      if (charged !== path && !charged.startsWith(`${path}/`)) continue;
      this.entries.delete(charged);
      this.adjust(entry.account, -entry.bytes);
      released += entry.bytes;
    }
    if (released > 0) this.onRelease(released);
  }

  /** A rename: the charges under `from` follow to `to` (what `to` held before is given back first). */
  move(from: string, to: string): void {
    this.refund(to);
    for (const [charged, entry] of [...this.entries]) {
      if (charged !== from && !charged.startsWith(`${from}/`)) continue;
      this.entries.delete(charged);
      this.entries.set(to + charged.slice(from.length), entry);
    }
  }

  private adjust(account: string, delta: number): void {
    this.accounts.set(account, (this.accounts.get(account) ?? 0) + delta);
    this.total += delta;
  }
}

function quotaError(code: 'EDQUOT' | 'ENOSPC', path: string): Error {
  const text = code === 'EDQUOT' ? 'Disk quota exceeded' : 'No space left on device';
  return Object.assign(new Error(text), { code, path });
}
