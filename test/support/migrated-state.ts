// A stack's state directory with D1 already migrated, as a second `npm start` finds it. Applying the
// migrations to an empty D1 is wrangler's slowest step of a start (about 6 s and 5 s of CPU here, against
// 1.6 s when there is nothing to apply), and the end-to-end tests start some forty stacks: each fresh one
// gets a copy of one directory migrated by the same command `npm start` runs, made once per set of
// migrations, wrangler version and wrangler.toml. npm start still runs that command on the copy, and
// test/e2e/first-run.test.ts starts from an empty directory, so the path a newcomer takes stays tested.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const migrations = join(root, 'schema/migrations');
/** This checkout's own cache (gone with node_modules), not a shared temporary directory others could write. */
const cache = join(root, 'node_modules/.cache/bandit-runner');

/** Names the migrated template: the migrations' names and text, wrangler's version and wrangler.toml. */
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
  const template = join(cache, `d1-migrated-${templateKey()}`);
  if (existsSync(template)) return join(template, 'wrangler');
  mkdirSync(cache, { recursive: true });
  const making = mkdtempSync(`${template}-making-`);
  try {
    try {
      execFileSync(
        process.execPath,
        [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', join(making, 'wrangler')],
        {
          cwd: root,
          env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
          stdio: 'pipe',
        },
      );
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? error).slice(-2000);
      throw new Error(`wrangler d1 migrations apply failed making the tests' migrated D1 (${template}):\n${said}`);
    }
    // Whole or not at all: a reader never sees a template half made.
    try {
      renameSync(making, template);
    } catch (error) {
      // Another test process made it first; anything else is a real failure.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  return join(template, 'wrangler');
}

/** Gives a stack's state directory a migrated D1, unless it already holds state of its own. */
export function seedMigratedState(stateDir: string): void {
  const target = join(stateDir, 'wrangler');
  if (existsSync(target)) return;
  cpSync(migratedTemplate(), target, { recursive: true });
}
