// The proxy killed (SIGKILL) mid-run, again and again, on the real stack: `npm start` starts it
// again, the Durable Objects retry from their last checkpoints, and every run reaches its pause with
// a log that has no gap, no repeat, no level solved twice and no command run twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun, createRun, killProxyRepeatedly, proxyPid, waitSettled } from '../support/proxy-chaos.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const RUNS = 6;
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-chaos-'));
let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess(stateDir);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('the proxy killed mid-run', () => {
  it('loses and repeats nothing, and every run reaches its pause', async () => {
    const first = proxyPid(stack);
    expect(first).not.toBeNull();
    const runs = await Promise.all(Array.from({ length: RUNS }, () => createRun(stack, { maxRetries: 1 })));
    let settled = false;
    // Killed first as the runs start, then every 3 s: a run's retries back off 1 s, 2 s, 4 s….
    const kills = killProxyRepeatedly(stack, { firstAfterMs: 150, everyMs: 3_000, maxKills: 3, done: () => settled });
    const summaries = await waitSettled(
      stack,
      runs.map((r) => r.id),
      120_000,
    );
    settled = true;
    const killed = await kills;
    expect(killed).toBeGreaterThanOrEqual(1);
    expect(proxyPid(stack)).not.toBe(first);
    expect(stack.output()).toMatch(/\[start\] proxy exited \(SIGKILL\); starting it again/);

    const audits = await Promise.all(summaries.map((run) => auditRun(stack, run)));
    console.log(
      `proxy chaos: ${RUNS} runs, ${killed} kills, ${audits.reduce((n, a) => n + a.events, 0)} events, lost ${audits.reduce((n, a) => n + a.gaps, 0)}, repeated ${audits.reduce((n, a) => n + a.repeats + a.levelsTwice + a.commandsTwice, 0)}`,
    );
    for (const audit of audits) {
      expect(audit).toMatchObject({
        status: 'paused_for_user_action',
        gaps: 0,
        repeats: 0,
        levelsTwice: 0,
        commandsTwice: 0,
        otherErrors: [],
        pauses: 1,
      });
    }
  });
});
