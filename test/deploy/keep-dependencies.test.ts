// scripts/keep-dependencies.ts, which the Dockerfiles run before `npm install --omit=dev`: it keeps the
// named dependencies at the versions package.json pins, drops the rest and the dev tools, and stops
// the build when a name is not a dependency.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const script = join(root, 'scripts/keep-dependencies.ts');
type Manifest = { type?: string; dependencies: Record<string, string>; devDependencies?: Record<string, string> };
const original = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keep-dependencies-'));
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const manifest = () => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

describe('scripts/keep-dependencies.ts', () => {
  it('keeps only the named dependencies, at their pinned versions, and no dev dependencies', () => {
    execFileSync(process.execPath, [script, 'zod', 'ssh2'], { cwd: dir });
    const kept = manifest();
    expect(kept.dependencies).toEqual({ zod: original.dependencies.zod, ssh2: original.dependencies.ssh2 });
    expect(kept.devDependencies).toBeUndefined();
    // The sources are ES modules, which Node learns from package.json.
    expect(kept.type).toBe('module');
  });

  it('fails, naming it, when a package is not a dependency (a dev tool or a typo), and changes nothing', () => {
    const result = spawnSync(process.execPath, [script, 'zod', 'vitest'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/not among package\.json's dependencies: vitest/);
    expect(manifest()).toEqual(original);
  });

  it('fails when no package is named', () => {
    expect(spawnSync(process.execPath, [script], { cwd: dir }).status).toBe(1);
  });
});
