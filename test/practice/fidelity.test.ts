// The differential test: the world of one seed, in the range and on a real disk under real bash with
// Debian's tools, and a corpus of command lines Bandit players use. Standard output and exit codes
// must be identical (owner names are the world's own on both sides). The report lists every
// difference; the catalogue's "faithful" column must agree with it.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRACTICE_LEVELS } from '../../schema/levels.ts';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RunningRange } from '../../practice/server.ts';
import { corpus } from './fidelity/corpus.ts';
import type { CorpusLine } from './fidelity/corpus.ts';
import { RealWorld, realSideUnavailable } from './fidelity/real-world.ts';
import { rangeSide, realSide } from './fidelity/sides.ts';

const REPORT = 'docs/fidelity-report.md';
const SEED = 'fidelity';
// cron's minute, shortened so that a session can come back for a spool script's result.
const CRON_INTERVAL_MS = 1_000;
type Outcome = CorpusLine & {
  same: boolean;
  real: { stdout: string; exitCode: number };
  range: { stdout: string; exitCode: number };
};

const unavailable = realSideUnavailable();
let range: RunningRange;
let real: RealWorld;
const outcomes: Outcome[] = [];

beforeAll(async () => {
  if (unavailable) throw new Error(`${unavailable}; CI runs as root, as this test needs`);
  range = await startRange({
    host: '127.0.0.1',
    port: 0,
    hostKey: loadHostKey(null),
    seed: SEED,
    cronIntervalMs: CRON_INTERVAL_MS,
  });
  real = new RealWorld(range.world);
  await real.addGitRepos(range.world);
  for (const line of corpus()) {
    const [ours, theirs] = await Promise.all([rangeSide(range, line), realSide(real, line)]);
    real.clearTmp();
    const shown = (stdout: string) => (line.unordered ? stdout.split('\n').sort().join('\n') : stdout);
    const same = shown(ours.stdout) === shown(theirs.stdout) && ours.exitCode === theirs.exitCode;
    outcomes.push({ ...line, same, real: theirs, range: ours });
  }
}, 300_000);
afterAll(async () => {
  real?.remove();
  await range?.close();
});

function report(): string {
  const same = outcomes.filter((o) => o.same).length;
  const percent = ((100 * same) / outcomes.length).toFixed(1);
  const levels = levelAgreement();
  let text = `# Fidelity report (generated)\n\nWritten by \`test/practice/fidelity.test.ts\` with \`FIDELITY_REPORT=write\`; the test fails when this file no longer matches.\nWorld seed \`${SEED}\`; real side: bash and Debian's tools in a chroot of the same world.\n\n`;
  text += `**${same} of ${outcomes.length} entries identical (${percent}%)** in standard output and exit code; the lines in order compare stdout and stderr merged as a terminal shows them, and a session compares each login's output.\n\n`;
  text += '| Part | Identical |\n|---|---|\n';
  for (const [part, name] of PARTS) {
    const of = outcomes.filter((o) => o.part === part);
    text += `| ${name} | ${of.filter((o) => o.same).length} of ${of.length} |\n`;
  }
  text += '\n';
  text += '| Level | Usual solutions identical |\n|---|---|\n';
  for (const [level, { same: s, total }] of levels) text += `| ${level} | ${s} of ${total} |\n`;
  text += '\n## Differences\n\n';
  for (const o of outcomes.filter((x) => !x.same)) {
    const how = o.steps ? 'a session' : o.merged ? `as ${o.user}, stdout and stderr in order` : `as ${o.user}`;
    text += `### \`${o.command.replace(/`/g, "'")}\` ${how}\n\nreal (exit ${o.real.exitCode}):\n\`\`\`\n${clip(o.real.stdout)}\n\`\`\`\nrange (exit ${o.range.exitCode}):\n\`\`\`\n${clip(o.range.stdout)}\n\`\`\`\n\n`;
  }
  return text;
}

const PARTS: [CorpusLine['part'], string][] = [
  [undefined, 'Single command lines'],
  ['in order', 'Output in order (stdout and stderr as they arrive)'],
  ['wait', 'Waits (`sleep`, `timeout`)'],
  ['session', 'Sessions of several logins (one shared world; cron in between)'],
];

function clip(text: string): string {
  const shown = text.length > 600 ? `${text.slice(0, 600)}…` : text;
  return JSON.stringify(shown).slice(1, -1).replace(/\\n/g, '\n').replace(/```/g, "'''");
}

function levelAgreement(): Map<number, { same: number; total: number }> {
  const levels = new Map<number, { same: number; total: number }>();
  for (const o of outcomes) {
    if (o.level === undefined) continue;
    const entry = levels.get(o.level) ?? { same: 0, total: 0 };
    entry.total++;
    if (o.same) entry.same++;
    levels.set(o.level, entry);
  }
  return levels;
}

describe('the range against real bash and Debian tools', () => {
  it('runs a corpus of at least 300 command lines on both sides', () => {
    expect(outcomes.length).toBeGreaterThanOrEqual(300);
    const same = outcomes.filter((o) => o.same).length;
    console.log(`fidelity: ${same} of ${outcomes.length} identical (${((100 * same) / outcomes.length).toFixed(1)}%)`);
  });

  it('keeps the committed report current', () => {
    const text = report();
    if (process.env.FIDELITY_REPORT === 'write') writeFileSync(REPORT, text);
    expect(readFileSync(REPORT, 'utf8')).toBe(text);
  });

  it('marks a level faithful exactly when all its usual solutions are identical', () => {
    for (const [level, { same, total }] of levelAgreement()) {
      const info = PRACTICE_LEVELS.find((l) => l.level === level);
      expect({ level, faithful: info?.faithful }).toEqual({ level, faithful: same === total });
    }
  });
});
