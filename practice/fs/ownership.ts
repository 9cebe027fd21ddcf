// Who owns each path. just-bash's filesystems keep modes but not owners, so the range keeps them here.
/** Owner and group of one path; `program` marks an emulated executable (see commands/programs.ts). */
export type Ownership = { owner: string; group: string; program?: string };

const ROOT: Ownership = { owner: 'root', group: 'root' };

/** A path → owner table with a root:root default, one per world. */
export class OwnershipTable {
  private readonly entries: Map<string, Ownership>;

  constructor(entries?: Map<string, Ownership>) {
    this.entries = new Map(entries);
  }

  get(path: string): Ownership {
    return this.entries.get(path) ?? ROOT;
  }

  set(path: string, ownership: Ownership): void {
    this.entries.set(path, ownership);
  }

  delete(path: string): void {
    this.entries.delete(path);
  }

  /** Forgets `path` and everything below it (a removed tree). */
  deleteTree(path: string): void {
    for (const key of [...this.entries.keys()]) {
      if (key === path || key.startsWith(`${path}/`)) this.entries.delete(key);
    }
  }

  /** Moves the entry for `from` (and everything below it) to `to`. */
  move(from: string, to: string): void {
    for (const [path, ownership] of [...this.entries]) {
      if (path === from || path.startsWith(`${from}/`)) {
        this.entries.delete(path);
        this.entries.set(to + path.slice(from.length), ownership);
      }
    }
  }
}
