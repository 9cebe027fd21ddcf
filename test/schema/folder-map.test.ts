// docs/development.md's folder map matches the tree: every top-level folder and every folder of
// worker/ that git tracks is named in its Layout block, and every folder the block names exists.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const tracked = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const folders = (under: string): string[] =>
  [
    ...new Set(
      tracked
        .filter((path) => path.startsWith(under) && path.slice(under.length).includes('/'))
        .map((path) => `${under}${path.slice(under.length).split('/')[0]}/`),
    ),
  ]
    .filter((folder) => !folder.startsWith('.'))
    .sort();

const doc = readFileSync('docs/development.md', 'utf8');
const layout = doc.slice(doc.indexOf('## Layout'), doc.indexOf('\n## ', doc.indexOf('## Layout') + 1));

describe('the folder map in docs/development.md', () => {
  it('names every top-level folder, each at the start of a line', () => {
    const top = folders('');
    expect(top.length).toBeGreaterThan(5);
    const named = [...layout.matchAll(/^([a-z-]+\/)\s/gm)].map((m) => m[1]);
    expect(top.filter((f) => !named.includes(f))).toEqual([]);
    expect(named.filter((f) => !existsSync(f!))).toEqual([]);
  });

  it("names every folder of worker/ in worker/'s line or the lines under it", () => {
    const worker = folders('worker/').map((f) => f.slice('worker/'.length));
    expect(worker.length).toBeGreaterThan(2);
    expect(worker.filter((f) => !layout.includes(f))).toEqual([]);
  });
});
