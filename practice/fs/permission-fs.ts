// A filesystem wrapper that enforces Unix permissions for one identity: search permission on every
// directory on the way, read/write/execute bits by owner, group and other, root bypasses all.
// Denials throw EACCES, which the range's own commands turn into "Permission denied".
import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from 'just-bash';

type ReadFileOptions = Exclude<Parameters<IFileSystem['readFile']>[1], BufferEncoding | undefined>;
type WriteFileOptions = Exclude<Parameters<IFileSystem['writeFile']>[2], BufferEncoding | undefined>;
import type { Identity } from '../world/accounts.ts';
import type { DiskLedger } from './disk-ledger.ts';
import { ENTRY_BYTES } from './disk-ledger.ts';
import type { Ownership, OwnershipTable } from './ownership.ts';

const READ = 4;
const WRITE = 2;
const EXEC = 1;

/** An error shaped like Node's, so callers can test `code`. */
export function fsError(code: 'EACCES' | 'ENOENT' | 'EPERM', op: string, path: string): Error {
  // The message is what coreutils print after the path; just-bash's built-ins print it as is.
  const text =
    code === 'EACCES'
      ? 'Permission denied'
      : code === 'EPERM'
        ? 'Operation not permitted'
        : 'No such file or directory';
  return Object.assign(new Error(text), { code, syscall: op, path });
}

function byteLength(content: FileContent): number {
  return typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
}

export class PermissionFs implements IFileSystem {
  readonly inner: IFileSystem;
  readonly owners: OwnershipTable;
  readonly who: Identity;
  private readonly ledger: DiskLedger;

  constructor(inner: IFileSystem, owners: OwnershipTable, who: Identity, ledger: DiskLedger) {
    this.inner = inner;
    this.owners = owners;
    this.who = who;
    this.ledger = ledger;
  }

  /** The same filesystem seen by another identity (setuid programs, ssh to another user). */
  as(who: Identity): PermissionFs {
    return new PermissionFs(this.inner, this.owners, who, this.ledger);
  }

  /**
   * Charges `bytes` for `path` (or gives them back): to whoever was charged for it already, else to
   * the file's owner, as a Unix quota charges the owner whoever writes.
   */
  private charge(path: string, bytes: number, account = this.owners.get(path).owner): void {
    this.ledger.charge(this.ledger.accountOf(path) ?? account, path, bytes);
  }

  /** Bytes (and entries) a copy of `path` would add. */
  private async footprint(path: string): Promise<number> {
    const stat = await this.inner.lstat(path);
    if (!stat.isDirectory) return ENTRY_BYTES + (stat.isSymbolicLink ? 0 : stat.size);
    let total = ENTRY_BYTES;
    for (const name of await this.inner.readdir(path))
      total += await this.footprint(`${path === '/' ? '' : path}/${name}`);
    return total;
  }

  ownership(path: string): Ownership {
    return this.owners.get(path);
  }

  /** Whether the identity may read (4), write (2) or execute (1) `path`, given its mode. */
  may(path: string, mode: number, want: number): boolean {
    if (this.who.euid === 0) return want !== EXEC || (mode & 0o111) !== 0;
    const o = this.owners.get(path);
    const bits = o.owner === this.who.euser ? mode >> 6 : this.who.groups.includes(o.group) ? mode >> 3 : mode;
    return (bits & want) === want;
  }

  async canAccess(path: string, want: number): Promise<boolean> {
    try {
      await this.searchable(path, 'access');
      return this.may(path, (await this.inner.stat(path)).mode, want);
    } catch {
      return false;
    }
  }

  /** Throws EACCES unless every directory above `path` grants search (x). */
  private async searchable(path: string, op: string): Promise<void> {
    const parts = path.split('/').filter(Boolean);
    let dir = '';
    for (let i = 0; i < parts.length - 1; i++) {
      dir += `/${parts[i]}`;
      const stat = await this.inner.stat(dir).catch(() => null);
      if (stat?.isDirectory && !this.may(dir, stat.mode, EXEC)) throw fsError('EACCES', op, path);
    }
    if (parts.length > 0) {
      const rootStat = await this.inner.stat('/');
      if (!this.may('/', rootStat.mode, EXEC)) throw fsError('EACCES', op, path);
    }
  }

  private async require(path: string, want: number, op: string): Promise<void> {
    await this.searchable(path, op);
    const stat = await this.inner.stat(path);
    if (!this.may(path, stat.mode, want)) throw fsError('EACCES', op, path);
  }

  /** Creating or removing an entry needs write and search on its directory. */
  private async requireParent(path: string, op: string): Promise<void> {
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    await this.require(parent, WRITE | EXEC, op);
    await this.requireParentSticky(parent, path, op);
  }

  /** In a sticky directory (/tmp) only an entry's owner may remove or replace it. */
  private async requireParentSticky(parent: string, path: string, op: string): Promise<void> {
    const stat = await this.inner.stat(parent);
    if ((stat.mode & 0o1000) === 0 || this.who.euid === 0) return;
    if (!(await this.inner.exists(path))) return;
    if (this.owners.get(path).owner !== this.who.euser) throw fsError('EPERM', op, path);
  }

  /** A new entry becomes the writer's, charged its entry cost plus `bytes`. */
  private claim(path: string, bytes = 0): void {
    this.ledger.refund(path);
    this.ledger.charge(this.who.euser, path, ENTRY_BYTES + bytes);
    this.owners.set(path, { owner: this.who.euser, group: this.who.groups[0] ?? this.who.euser });
  }

  async readFile(path: string, options?: ReadFileOptions | BufferEncoding): Promise<string> {
    await this.require(path, READ, 'open');
    // The shell runs an executable by reading it as a script; an emulated program's script hands
    // over to the dispatcher, which checks execute permission and applies setuid. Byte reads
    // (cat, file, xxd) still see the program's own bytes.
    const program = this.owners.get(path).program;
    if (program) return `__practice_program '${path}' "$@"\n`;
    return this.inner.readFile(path, options);
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    await this.require(path, READ, 'open');
    return this.inner.readFileBuffer(path);
  }

  /** Checks and charges a write: the growth of the file; a new file becomes the writer's. /dev is free. */
  private async prepareWrite(path: string, content: FileContent, append: boolean): Promise<void> {
    if (path.startsWith('/dev/')) return;
    const size = byteLength(content);
    if (await this.inner.exists(path)) {
      await this.require(path, WRITE, 'open');
      this.charge(path, append ? size : size - (await this.inner.stat(path)).size);
    } else {
      await this.requireParent(path, 'open');
      this.claim(path, size);
    }
  }

  async writeFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void> {
    await this.prepareWrite(path, content, false);
    return this.inner.writeFile(path, content, options);
  }

  async appendFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void> {
    await this.prepareWrite(path, content, true);
    return this.inner.appendFile(path, content, options);
  }

  async exists(path: string): Promise<boolean> {
    try {
      await this.searchable(path, 'stat');
    } catch {
      return false;
    }
    return this.inner.exists(path);
  }

  async stat(path: string): Promise<FsStat> {
    await this.searchable(path, 'stat');
    return this.inner.stat(path);
  }

  async lstat(path: string): Promise<FsStat> {
    await this.searchable(path, 'lstat');
    return this.inner.lstat(path);
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    if (await this.inner.exists(path)) return this.inner.mkdir(path, options);
    if (options?.recursive) {
      const parent = path.slice(0, path.lastIndexOf('/')) || '/';
      if (parent !== '/' && !(await this.inner.exists(parent))) await this.mkdir(parent, options);
    }
    await this.requireParent(path, 'mkdir');
    this.claim(path);
    return this.inner.mkdir(path, options);
  }

  async readdir(path: string): Promise<string[]> {
    await this.require(path, READ, 'scandir');
    return this.inner.readdir(path);
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    await this.requireParent(path, 'unlink');
    await this.inner.rm(path, options);
    this.owners.deleteTree(path);
    this.ledger.refund(path);
  }

  /**
   * A copy is charged in full before it is made, and everything in it becomes the copier's —
   * without the setuid and setgid bits, as GNU cp drops them when it does not keep the owner.
   */
  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    await this.require(src, READ, 'copyfile');
    const replacing = await this.inner.exists(dest);
    if (replacing) await this.require(dest, WRITE, 'copyfile');
    else await this.requireParent(dest, 'copyfile');
    const bytes = (await this.footprint(src)) - (replacing ? await this.footprint(dest) : 0);
    this.charge(dest, bytes, this.who.euser);
    try {
      await this.inner.cp(src, dest, options);
    } catch (err) {
      this.charge(dest, -bytes, this.who.euser);
      throw err;
    }
    const owner = { owner: this.who.euser, group: this.who.groups[0] ?? this.who.euser };
    for (const { path, stat } of await this.tree(dest)) {
      this.owners.set(path, owner);
      if (!stat.isDirectory && stat.mode & 0o6000) await this.inner.chmod(path, stat.mode & ~0o6000);
    }
  }

  /** A rename keeps the bytes where they were charged; they follow the file to its new name. */
  async mv(src: string, dest: string): Promise<void> {
    await this.requireParent(src, 'rename');
    await this.requireParent(dest, 'rename');
    await this.inner.mv(src, dest);
    this.owners.move(src, dest);
    this.ledger.move(src, dest);
  }

  /** `path` and everything below it, with what lstat says of each. */
  private async tree(path: string): Promise<{ path: string; stat: FsStat }[]> {
    const stat = await this.inner.lstat(path);
    if (!stat.isDirectory) return [{ path, stat }];
    const below = await Promise.all((await this.inner.readdir(path)).map((name) => this.tree(`${path}/${name}`)));
    return [{ path, stat }, ...below.flat()];
  }

  resolvePath(base: string, path: string): string {
    return this.inner.resolvePath(base, path);
  }

  getAllPaths(): string[] {
    return this.inner.getAllPaths();
  }

  async chmod(path: string, mode: number): Promise<void> {
    await this.searchable(path, 'chmod');
    if (this.who.euid !== 0 && this.owners.get(path).owner !== this.who.euser) throw fsError('EPERM', 'chmod', path);
    return this.inner.chmod(path, mode);
  }

  async symlink(target: string, linkPath: string): Promise<void> {
    await this.requireParent(linkPath, 'symlink');
    this.claim(linkPath);
    return this.inner.symlink(target, linkPath);
  }

  async link(existingPath: string, newPath: string): Promise<void> {
    await this.require(existingPath, READ, 'link');
    await this.requireParent(newPath, 'link');
    this.claim(newPath);
    return this.inner.link(existingPath, newPath);
  }

  async readlink(path: string): Promise<string> {
    await this.searchable(path, 'readlink');
    return this.inner.readlink(path);
  }

  async realpath(path: string): Promise<string> {
    await this.searchable(path, 'realpath');
    return this.inner.realpath(path);
  }

  async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    await this.require(path, WRITE, 'utime');
    return this.inner.utimes(path, atime, mtime);
  }
}
