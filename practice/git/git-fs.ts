// isomorphic-git's filesystem interface over a just-bash filesystem: the range's world (laying out
// the repositories) or a player's permission-checked view (git in the range). Errors get the Node
// `code` isomorphic-git tests for; just-bash puts it only at the start of the message.
import type { IFileSystem } from 'just-bash';

type Encoding = { encoding?: string } | string | undefined;

/** The stat fields isomorphic-git reads (it normalises the rest). */
type GitStat = {
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  size: number;
  ino: number;
  uid: number;
  gid: number;
  dev: number;
  mtimeMs: number;
  ctimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
};

function withCode(err: unknown): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  const code =
    (e as { code?: string }).code ??
    /^(E[A-Z]+)\b/.exec(e.message)?.[1] ??
    (/permission denied/i.test(e.message) ? 'EACCES' : /no such file/i.test(e.message) ? 'ENOENT' : undefined);
  return code ? Object.assign(e, { code }) : e;
}

async function wrap<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw withCode(err);
  }
}

const encodingOf = (options: Encoding) => (typeof options === 'string' ? options : options?.encoding);

/** The `fs` object to pass to isomorphic-git: `{ promises: … }`. */
export function gitFs(fs: IFileSystem) {
  const stat = (follow: boolean) => (path: string) =>
    wrap(async (): Promise<GitStat> => {
      const s = follow ? await fs.stat(path) : await fs.lstat(path);
      const type = s.isSymbolicLink ? 'symlink' : s.isDirectory ? 'dir' : 'file';
      const ms = s.mtime.getTime();
      return {
        type,
        mode: s.mode,
        size: s.size,
        ino: 0,
        uid: 0,
        gid: 0,
        dev: 0,
        mtimeMs: ms,
        ctimeMs: ms,
        isFile: () => type === 'file',
        isDirectory: () => type === 'dir',
        isSymbolicLink: () => type === 'symlink',
      };
    });
  return {
    promises: {
      readFile: (path: string, options?: Encoding) =>
        wrap(async () => {
          const bytes = await fs.readFileBuffer(path);
          return encodingOf(options) === 'utf8' ? Buffer.from(bytes).toString('utf8') : Buffer.from(bytes);
        }),
      writeFile: (path: string, data: string | Uint8Array) => wrap(() => fs.writeFile(path, data)),
      unlink: (path: string) => wrap(() => fs.rm(path)),
      rmdir: (path: string) => wrap(() => fs.rm(path)),
      mkdir: (path: string) =>
        wrap(async () => {
          if (await fs.exists(path))
            throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${path}'`), { code: 'EEXIST' });
          await fs.mkdir(path);
        }),
      readdir: (path: string) => wrap(() => fs.readdir(path)),
      stat: stat(true),
      lstat: stat(false),
      readlink: (path: string) => wrap(() => fs.readlink(path)),
      symlink: (target: string, path: string) => wrap(() => fs.symlink(target, path)),
      chmod: (path: string, mode: number) => wrap(() => fs.chmod(path, mode)),
    },
  };
}

/** Copies a directory tree from one filesystem to another (a local clone copies the object store). */
export async function copyTree(from: IFileSystem, source: string, to: IFileSystem, target: string): Promise<number> {
  await to.mkdir(target, { recursive: true });
  let files = 0;
  for (const name of await from.readdir(source)) {
    const s = await from.stat(`${source}/${name}`);
    if (s.isDirectory) files += await copyTree(from, `${source}/${name}`, to, `${target}/${name}`);
    else {
      await to.writeFile(`${target}/${name}`, await from.readFileBuffer(`${source}/${name}`));
      files++;
    }
  }
  return files;
}
