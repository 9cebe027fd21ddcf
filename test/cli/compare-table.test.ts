// What `compare` prints: both heads, a line per level with both runs' figures (a differing level marked),
// the totals, and the first difference in a sentence; hostile text from the logs reaches no terminal as a control.
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { compareLines } from '../../cli/render/compare-table.ts';
import { compareRuns } from '../../schema/run-compare.ts';
import { A, B, log, run, threeLevels } from '../support/compare-logs.ts';
import { forbiddenIn, HOSTILE } from '../support/hostile-text.ts';

const plain = pc.createColors(false);

describe('compareLines', () => {
  it('prints the heads, each level side by side with differences marked, the totals and the first difference', () => {
    const b = log(B).started(0).cmd(0, 'cat readme').solved(0).started(1).cmd(1, 'ls').end('stopped', 1);
    const lines = compareLines(compareRuns(run(A, threeLevels(A).events), run(B, b.events, 'alpha/solver')), plain);
    expect(lines[0]).toBe(`A  ${A}  baseline  completed  levels 0-3, max retries 1`);
    expect(lines[1]).toBe(`B  ${B}  alpha/solver  completed  levels 0-3, max retries 1`);
    expect(lines[3]).toMatch(/^\s+outcome\s+att\s+cmds\s+time\s+tokens\s+cost\s+│ outcome/);
    const row = (level: number) => lines.find((l) => l.slice(2).startsWith(`L${level} `))!;
    expect(row(0)).toMatch(/^ {2}L0 {3}alone\s+1\s+1\s+1\.0s\s+0\s+\$0\s+│ alone\s+1\s+1\s+1\.0s\s+0\s+\$0/);
    expect(row(1)).toMatch(/^≠ L1 {3}alone\s+1\s+2\s+1\.0s\s+110\s+\$0\.0100\s+│ not solved\s+1\s+1\s+—/);
    expect(row(2)).toMatch(/^≠ L2 {3}alone .*│ —\s*$/);
    expect(lines.find((l) => l.includes('total'))).toMatch(/total 3 solved\s+3\s+7\s.*│ 1 solved\s+2\s+2\s/);
    expect(lines.at(-1)).toBe('The runs first differ at level 1, step 1: A ran `ls -la` (seq 5); B ran `ls` (seq 5).');
  });

  it('colours a differing level, and none without colour', () => {
    const b = log(B).started(0).cmd(0, 'ls');
    const c = compareRuns(run(A, threeLevels(A).events), run(B, b.events));
    const coloured = compareLines(c, pc.createColors(true));
    expect(coloured.some((l) => l.startsWith('\x1b[33m≠ L0'))).toBe(true);
    expect(compareLines(c, plain).join('\n')).not.toContain('\x1b');
  });

  it('shows hostile commands as text, never as controls, one line each', () => {
    for (const { kind, text } of HOSTILE) {
      const b = log(B).started(0).cmd(0, text);
      const lines = compareLines(compareRuns(run(A, threeLevels(A).events), run(B, b.events)), plain);
      const all = lines.join('\n');
      expect(forbiddenIn(all), kind).toEqual([]);
      expect(lines.at(-1), kind).toMatch(/^The runs first differ at level 0, step 1: A ran `cat readme` \(seq 2\); B /);
      expect(lines.at(-1), kind).not.toContain('\n');
    }
  });
});
