// /tmp is cleaned as a real server cleans it: on a schedule, every entry nobody has touched for a
// while goes, with its quota charge. The same holds for the other directories anyone may write in
// (cron's spool), so nothing a player leaves there stays for good; the world's own files stay.
import type { RangeWorld } from '../world/range-world.ts';

/** How old an untouched entry must be to go, and how often the sweep runs. */
export type SweepSettings = { maxAgeMs: number };

/** Removes old entries from the world-writable directories of one world; returns how many went. */
export async function sweepWorld(world: RangeWorld, settings: SweepSettings, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const dir of await writableDirs(world)) {
    for (const name of await world.fs.readdir(dir).catch(() => [] as string[])) {
      const path = `${dir}/${name}`;
      if (world.builtPaths.has(path)) continue;
      const touched = await newestChange(world, path);
      if (now - touched < settings.maxAgeMs) continue;
      await world.fs.rm(path, { recursive: true, force: true }).catch(() => undefined);
      world.owners.deleteTree(path);
      world.ledger.refund(path);
      removed++;
    }
  }
  return removed;
}

/** The world's own directories that anyone may write in: /tmp, and cron's spool. */
async function writableDirs(world: RangeWorld): Promise<string[]> {
  const dirs: string[] = [];
  for (const path of world.builtPaths) {
    const stat = await world.fs.stat(path).catch(() => null);
    if (stat?.isDirectory && (stat.mode & 0o002) !== 0) dirs.push(path);
  }
  return dirs;
}

/** The latest modification time anywhere in a tree, as tmpfiles' age check looks inside directories. */
async function newestChange(world: RangeWorld, path: string): Promise<number> {
  const stat = await world.fs.lstat(path).catch(() => null);
  if (!stat) return 0;
  let newest = stat.mtime.getTime();
  if (stat.isDirectory) {
    for (const name of await world.fs.readdir(path).catch(() => [] as string[]))
      newest = Math.max(newest, await newestChange(world, `${path}/${name}`));
  }
  return newest;
}
