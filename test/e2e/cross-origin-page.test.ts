// A hostile page on another origin, in real Chromium, against a stack started by `npm start`: it
// scans every port the stack listens on, tries the inspector, and reads no secret (issue 27, finding 1).
// The same page against a stack with WORKER_INSPECTOR_PORT set does open sockets: the probe is real.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileWorker } from '../../bench/worker-profiler.ts';
import { runSummarySchema } from '../../schema/run.ts';
import { ACCESS_MODES } from '../support/access-modes.ts';
import { freePort } from '../support/free-port.ts';
import type { HostileReport } from '../support/hostile-site.ts';
import { HostileSite } from '../support/hostile-site.ts';
import { listeningPorts } from '../support/listening-ports.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { stackForFile, startStackProcess } from '../support/stack-process.ts';

const PROXY_SECRET = 'e2e-hostile-page-proxy-secret-4e1a';
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // evil.example is a name of its own (a page on another site) that resolves to this machine.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--host-resolver-rules=MAP evil.example 127.0.0.1',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

/** Opens the hostile page from another site and from another loopback port; returns what each posted back. */
async function attack(stack: StackProcess, token: string | null): Promise<HostileReport[]> {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const created = await fetch(`${stack.url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({ maxRetries: 1 }),
  });
  const runId = runSummarySchema.parse(await created.json()).id;
  const site = new HostileSite({
    ports: listeningPorts(stack.pid).map((l) => l.port),
    workerPort: stack.ports.worker,
    runId,
  });
  const sitePort = await site.listen();
  try {
    const origins = [`http://evil.example:${sitePort}`, `http://127.0.0.1:${sitePort}`];
    // Both pages at once, each in its own context (as two tabs of two sites would be).
    await Promise.all(
      origins.map(async (origin) => {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${origin}/`);
        await page.waitForFunction(() => document.title === 'done', undefined, { timeout: 240_000 });
        await context.close();
      }),
    );
    expect(site.reports.map((r) => r.origin).sort()).toEqual([...origins].sort());
    return origins.map((origin) => site.reports.find((r) => r.origin === origin)!);
  } finally {
    await site.close();
  }
}

const opened = (report: HostileReport) => report.tries.filter((t) => t.outcome.startsWith('opened'));
const readable = (report: HostileReport) => report.tries.filter((t) => t.read.length > 0);

describe.each(ACCESS_MODES)('a cross-origin page against a stack with $name', (mode) => {
  const stack = stackForFile(`hostile-page-${mode.token ? 'token' : 'loopback'}`, { ...mode.env, PROXY_SECRET });

  it('opens no socket and reads no secret, from another site or another loopback port', async () => {
    for (const report of await attack(stack(), mode.token)) {
      const read = readable(report);
      console.log(
        `[hostile page] ${mode.name}, ${report.origin}: ${report.tries.length} tries, ${opened(report).length} sockets opened, ${read.length} answers readable`,
      );
      expect(report.tries.length).toBeGreaterThan(60);
      expect(opened(report)).toEqual([]);
      // The worker sends no CORS headers, so not one answer was readable, let alone a secret.
      expect(read).toEqual([]);
      const everything = JSON.stringify(report);
      expect(everything).not.toContain(PROXY_SECRET);
      if (mode.token) expect(everything).not.toContain(mode.token);
    }
  });
});

describe('the same page against a stack started with WORKER_INSPECTOR_PORT (profiling only)', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-hostile-inspector-'));
  let stack: StackProcess | undefined;
  let inspectorPort = 0;
  beforeAll(async () => {
    inspectorPort = await freePort();
    stack = await startStackProcess(stateDir, undefined, {
      PROXY_SECRET,
      WORKER_INSPECTOR_PORT: String(inspectorPort),
    });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('profiles the worker through that port (bench/stack --profile)', async () => {
    const profiler = await profileWorker(inspectorPort);
    await fetch(`${stack!.url}/api/health`);
    const files = await profiler.stop(join(stateDir, 'profile'));
    expect(files.length).toBeGreaterThan(0);
    expect(readdirSync(stateDir).some((f) => f.endsWith('.cpuprofile'))).toBe(true);
  });

  it("lets the same page open sockets on wrangler's ports: why the inspector is off unless asked for", async () => {
    const reports = await attack(stack!, null);
    const sessions = reports.flatMap((r) =>
      opened(r).filter((t) => t.read.includes('Runtime.executionContextCreated')),
    );
    for (const report of reports) {
      console.log(
        `[hostile page] WORKER_INSPECTOR_PORT set, ${report.origin}: ${report.tries.length} tries, ${opened(report).length} sockets opened, ${opened(report).filter((t) => t.read.includes('executionContextCreated')).length} DevTools sessions`,
      );
    }
    // The fence above is what stops this: with the inspector on, wrangler's relay and inspectors are
    // back, and the page on another loopback port opens sockets on them (the relay's live-reload one
    // every time; a DevTools session when the inspector is free, which the log counts).
    console.log(`[hostile page] DevTools sessions opened: ${sessions.length}`);
    expect(opened(reports[1]!).length).toBeGreaterThan(0);
  });
});
