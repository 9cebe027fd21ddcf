// A stack's state directory with D1 already migrated, as a second `npm start` finds it. Applying the
// migrations to an empty D1 is wrangler's slowest step of a start (about 6 s and 5 s of CPU here, against
// 1.6 s when there is nothing to apply), and the end-to-end tests start some forty stacks: each fresh one
// gets a copy of one directory migrated by the same command `npm start` runs, once per set of migrations
// and wrangler version. npm start still runs that command on the copy, and test/e2e/first-run.test.ts
// starts from an empty directory, so the path a newcomer takes stays tested.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const migrations = join(root, 'schema/migrations');

/** Names the migrated template: the migrations' names and text, wrangler's version and the D1 binding's config. */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(root, 'node_modules/wrangler/package.json')));
  hash.update(readFileSync(join(root, 'wrangler.toml')));
  for (const name of readdirSync(migrations)
    .filter((n) => n.endsWith('.sql'))
    .sort())
    hash.update(name).update(readFileSync(join(migrations, name)));
  return hash.digest('hex').slice(0, 16);
}

/** The template's `wrangler` directory, migrated by `wrangler d1 migrations apply` the first time it is asked for. */
function migratedTemplate(): string {
  const template = join(tmpdir(), `bandit-runner-d1-migrated-${templateKey()}`);
  if (existsSync(template)) return join(template, 'wrangler');
  const making = mkdtempSync(`${template}-making-`);
  execFileSync(
    process.execPath,
    [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', join(making, 'wrangler')],
    {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
      stdio: 'ignore',
    },
  );
  try {
    // Whole or not at all: a reader never sees a template half made.
    renameSync(making, template);
  } catch {
    rmSync(making, { recursive: true, force: true }); // Another process made it first.
  }
  return join(template, 'wrangler');
}

/** Gives a stack's state directory a migrated D1, unless it already holds state of its own. */
export function seedMigratedState(stateDir: string): void {
  const target = join(stateDir, 'wrangler');
  if (existsSync(target)) return;
  cpSync(migratedTemplate(), target, { recursive: true });
}
