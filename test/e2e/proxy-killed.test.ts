// Three proxies behind HAProxy (PROXIES=3, as `npm start` runs them), one killed (SIGKILL) again and again
// while a batch of runs plays, each run in its own world on the range: the balancer's checks take the dead
// proxy out, `npm start` starts it again, and every run reaches its pause with a log that has no gap, no
// repeat, no level solved twice, and no command run twice on the target (the range's own command log).
// The long form, with 50 runs, is `npm run bench:chaos`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRun,
  createRun,
  killProxyRepeatedly,
  proxyPids,
  readRangeLog,
  waitSettled,
} from '../support/proxy-chaos.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const RUNS = 12;
const PROXIES = 3;
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-chaos-'));
const commandLog = join(stateDir, 'range-commands.jsonl');
let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess(stateDir, undefined, {
    PROXIES: String(PROXIES),
    PRACTICE_COMMAND_LOG: commandLog,
  });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('proxies killed mid-batch behind the balancer', () => {
  it('lose and repeat nothing, run no command twice, and every run reaches its pause', async () => {
    const first = proxyPids(stack);
    expect(first).toHaveLength(PROXIES);
    const runs = await Promise.all(
      Array.from({ length: RUNS }, () => createRun(stack, { maxRetries: 1, world: 'private' })),
    );
    let settled = false;
    // Killed first as the runs start, then every 2 s, each proxy in turn.
    const kills = killProxyRepeatedly(stack, { firstAfterMs: 300, everyMs: 2_000, maxKills: 4, done: () => settled });
    const summaries = await waitSettled(
      stack,
      runs.map((r) => r.id),
      180_000,
    );
    settled = true;
    const killed = await kills;
    expect(killed.length).toBeGreaterThanOrEqual(2);
    // Each killed proxy was started again, and the balancer's checks saw it go and come back.
    expect(proxyPids(stack)).toHaveLength(PROXIES);
    expect(proxyPids(stack).filter((pid) => first.includes(pid)).length).toBeLessThan(PROXIES);
    expect(stack.output()).toMatch(/\[start\] proxy-\d exited \(SIGKILL\); starting it again/);
    expect(stack.output()).toMatch(/\[balancer\].*Server proxies\/proxy-\d is DOWN/);
    expect(stack.output()).toMatch(/\[balancer\].*Server proxies\/proxy-\d is UP/);

    const rangeLog = readRangeLog(commandLog);
    const audits = await Promise.all(summaries.map((run) => auditRun(stack, run, rangeLog)));
    const sum = (f: (a: (typeof audits)[number]) => number) => audits.reduce((n, a) => n + f(a), 0);
    console.log(
      `proxy chaos: ${RUNS} runs on ${PROXIES} proxies, ${killed.length} kills, ${sum((a) => a.events)} events, lost ${sum((a) => a.gaps)}, repeated ${sum((a) => a.repeats + a.levelsTwice + a.commandsTwice)}; on the target: ${sum((a) => a.target?.logged ?? 0)} commands logged, run twice ${sum((a) => a.target?.ranTwice ?? 0)}, reported lost ${sum((a) => a.target?.lost ?? 0)}`,
    );
    for (const audit of audits) {
      // What the target ran more often than the run announced, by command, to read if this ever fails.
      if (audit.target?.twice.length) console.error(`${audit.id} on the target: ${audit.target.twice.join('; ')}`);
      expect(audit).toMatchObject({
        status: 'paused_for_user_action',
        gaps: 0,
        repeats: 0,
        levelsTwice: 0,
        commandsTwice: 0,
        target: { ranTwice: 0, unlogged: 0 },
        otherErrors: [],
        pauses: 1,
      });
      expect(audit.target?.logged).toBeGreaterThan(0);
    }
  });
});
