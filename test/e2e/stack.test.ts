// The stack `npm start` starts — range, proxy, wrangler dev with D1 and Durable Objects, and the web
// app — on free ports: it becomes healthy, serves the page, refuses bad input, keeps its state
// across a restart, and leaves nothing running after Ctrl-C.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { healthSchema } from '../../schema/api.ts';
import { runSummarySchema } from '../../schema/run.ts';
import { isListening } from '../support/free-port.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { stackPorts, startStackProcess } from '../support/stack-process.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-e2e-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

/** Every process below `pid`: the range, the proxy, wrangler and the workerd it runs. */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  for (let frontier = [pid]; frontier.length; ) {
    frontier = rows.filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    found.push(...frontier);
  }
  return found;
}

/** Running or sleeping; a zombie (Z) has exited and only waits to be reaped by init. */
function alive(pid: number): boolean {
  const result = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return result.status === 0 && !result.stdout.trim().startsWith('Z');
}

describe('npm start', () => {
  let stack: StackProcess;
  let runId = '';

  it('starts every program and reports every component healthy', async () => {
    stack = await startStackProcess(stateDir);
    const response = await fetch(`${stack.url}/api/health`);
    const health = healthSchema.parse(await response.json());
    expect(Object.entries(health.components).filter(([, c]) => !c.ok)).toEqual([]);
    expect(response.status).toBe(200);
    expect(health.components.practice.reason).toContain(`127.0.0.1:${stack.ports.practice}`);
  });

  it('serves the web app at / from the same origin', async () => {
    const response = await fetch(`${stack.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/<title>bandit-runner<\/title>/);
  });

  it('answers unknown routes and wrong methods with JSON errors, never a stack trace', async () => {
    const unknown = await fetch(`${stack.url}/api/does-not-exist`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    const wrongMethod = await fetch(`${stack.url}/api/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
    const page = await fetch(`${stack.url}/no-such-page`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(await page.text()).toMatch(/Page not found/);
    const badBody = await fetch(`${stack.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"budget": -1}',
    });
    expect(badBody.status).toBe(400);
    expect(JSON.stringify(await badBody.json())).not.toMatch(/\n\s+at /);
  });

  it('records a run in the Durable Object and D1', async () => {
    const response = await fetch(`${stack.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ maxRetries: 1 }),
    });
    expect(response.status).toBe(201);
    runId = runSummarySchema.parse(await response.json()).id;
    const health = healthSchema.parse(await (await fetch(`${stack.url}/api/health`)).json());
    expect(health.components.d1.reason).toMatch(/1 run indexed/);
  });

  it('carries 40 baseline runs at once to their first pause with no error on the way (a short form of bench/stack --scale)', async () => {
    const post = () =>
      fetch(`${stack.url}/api/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ maxRetries: 1 }),
      });
    const ids = await Promise.all(
      Array.from({ length: 40 }, async () => runSummarySchema.parse(await (await post()).json()).id),
    );
    const statuses = async () =>
      Promise.all(
        ids.map(async (id) => runSummarySchema.parse(await (await fetch(`${stack.url}/api/runs/${id}`)).json()).status),
      );
    await vi.waitFor(async () => expect((await statuses()).every((s) => s === 'paused_for_user_action')).toBe(true), {
      timeout: 120_000,
      interval: 500,
    });
    // No retried proxy call, no SSH or model error: each run's log holds exactly its level-13 pause.
    for (const id of ids) {
      const { events } = (await (await fetch(`${stack.url}/api/runs/${id}/events?limit=1000`)).json()) as {
        events: { type: string; reason?: string; code?: string }[];
      };
      expect(events.filter((e) => e.type === 'error').map((e) => e.code)).toEqual([]);
      expect(events.filter((e) => e.type === 'user_action_required').map((e) => e.reason)).toEqual(['max_retries']);
    }
  });

  it('stops every child on Ctrl-C, leaving no process and no open port', async () => {
    const children = descendants(stack.pid);
    expect(children.length).toBeGreaterThanOrEqual(4); // range, proxy, wrangler, workerd
    expect(await stack.stop()).toBe(0);
    for (let i = 0; i < 20 && children.some(alive); i++) await new Promise((r) => setTimeout(r, 250));
    expect(children.filter(alive)).toEqual([]);
    for (const port of Object.values(stack.ports)) expect(await isListening(port)).toBe(false);
  });

  it('keeps local state across a restart', async () => {
    stack = await startStackProcess(stateDir);
    try {
      const response = await fetch(`${stack.url}/api/runs/${runId}`);
      expect(response.status).toBe(200);
      expect(runSummarySchema.parse(await response.json()).config.maxRetries).toBe(1);
    } finally {
      expect(await stack.stop()).toBe(0);
    }
  });

  it('names the variable to change when a port is taken', async () => {
    const ports = await stackPorts();
    const blocker = createServer().listen(ports.worker, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    try {
      const result = spawnSync(process.execPath, ['scripts/start.ts'], {
        env: {
          ...process.env,
          WORKER_PORT: String(ports.worker),
          PROXY_PORT: String(ports.proxy),
          PRACTICE_PORT: String(ports.practice),
          STATE_DIR: stateDir,
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`port ${ports.worker} (WORKER_PORT) is in use`);
    } finally {
      blocker.close();
    }
  });
});
