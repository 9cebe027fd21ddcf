// The production bundle builds: `wrangler deploy --dry-run` bundles the worker, its Durable Object and
// the static assets as `wrangler deploy` would, without an account or network.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const outdir = mkdtempSync(join(tmpdir(), 'bandit-runner-bundle-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('wrangler deploy --dry-run', () => {
  it('bundles the worker with its Durable Object class and bindings', () => {
    const result = spawnSync(
      process.execPath,
      [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', outdir],
      {
        cwd: root,
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(result.status, result.stderr + result.stdout).toBe(0);
    expect(result.stdout).toMatch(/env\.RUN_SESSION \(RunSession\)\s+Durable Object/);
    expect(result.stdout).toMatch(/env\.DB \(bandit-runner\)\s+D1 Database/);
    const bundle = join(outdir, 'index.js');
    expect(existsSync(bundle)).toBe(true);
    const code = readFileSync(bundle, 'utf8');
    expect(code).toMatch(/var RunSession = class extends DurableObject/);
    expect(code).toMatch(/export \{[^}]*\bRunSession\b/);
  });
});
