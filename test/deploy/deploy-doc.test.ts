// docs/deploy.md's settings table against the code: every variable the proxy and the range read (found in
// their code by test/deploy/program-env.ts) and every one the worker's Env declares (generated from
// wrangler.toml) has a row naming who reads it, and no row claims a reader that does not read it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programs } from './program-env.ts';

const root = join(import.meta.dirname, '../..');
const doc = readFileSync(join(root, 'docs/deploy.md'), 'utf8');
const start = doc.indexOf('\n## Settings');
const section = doc.slice(start, doc.indexOf('\n## ', start + 1));

/** Each table row: the variables it names, and who it says reads them. */
const rows = section
  .split('\n')
  .filter((line) => /^\| `/.test(line))
  .map((line) => {
    const [names = '', , readers = ''] = line.split('|').slice(1);
    return {
      names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!),
      readers: readers.split(',').map((r) => r.trim()),
    };
  });
const listedFor = (reader: string) => rows.filter((r) => r.readers.includes(reader)).flatMap((r) => r.names);

// The worker's string bindings (vars and secrets): the ProcessEnv list `wrangler types` writes.
const workerTypes = readFileSync(join(root, 'worker-configuration.d.ts'), 'utf8');
const workerEnv = [...(/Pick<Cloudflare\.Env, ([^>]+)>/.exec(workerTypes)?.[1] ?? '').matchAll(/"([A-Z0-9_]+)"/g)]
  .map((m) => m[1]!)
  .sort();

const readers = [...programs.map((p) => ({ reader: p.name, env: p.env })), { reader: 'worker', env: workerEnv }];

describe('the settings table in docs/deploy.md', () => {
  it('has rows', () => {
    expect(rows.length).toBeGreaterThan(20);
    expect(workerEnv).toContain('PROXY_URL');
  });

  it.each(readers)(
    'lists every variable the $reader reads, in a row that says the $reader reads it',
    ({ reader, env }) => {
      expect(env.filter((name) => !listedFor(reader).includes(name))).toEqual([]);
    },
  );

  it.each(readers)('says the $reader reads only what it does read', ({ reader, env }) => {
    expect(listedFor(reader).filter((name) => !env.includes(name))).toEqual([]);
  });

  it('names only readers it knows', () => {
    expect(rows.flatMap((r) => r.readers).filter((r) => !['proxy', 'range', 'worker'].includes(r))).toEqual([]);
  });
});
