// Builds the static web app into web/out when its sources changed since the last build.
// The build is skipped when a hash of web/ and schema/ matches the one stored with the output.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SKIP = new Set(['out', '.next', 'node_modules', 'next-env.d.ts']);

/** A hash over every source file the web build reads. */
export function webSourceHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  for (const dir of ['web', 'schema']) walk(join(root, dir));
  hash.update(readFileSync(join(root, 'package-lock.json')));
  return hash.digest('hex');
}

/** Runs `next build web` unless web/out is current; resolves when the output is ready. */
export async function ensureWebBuild(
  root: string,
  options: { force?: boolean; log?: (line: string) => void } = {},
): Promise<'built' | 'current'> {
  const log = options.log ?? console.log;
  const stamp = join(root, 'web/out/.source-hash');
  const hash = webSourceHash(root);
  if (!options.force && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return 'current';
  log('building the web app (next build)…');
  const next = join(root, 'node_modules/next/dist/bin/next');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [next, 'build', 'web'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}`)),
    );
  });
  writeFileSync(stamp, hash);
  return 'built';
}
