// A hostile page on another origin, in real Chromium, against a stack started by `npm start`: it
// scans every port the stack listens on, tries the inspector, and reads no secret (issue 27, finding 1).
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSummarySchema } from '../../schema/run.ts';
import { ACCESS_MODES } from '../support/access-modes.ts';
import { HostileSite } from '../support/hostile-site.ts';
import { listeningPorts } from '../support/listening-ports.ts';
import { stackForFile } from '../support/stack-process.ts';

const PROXY_SECRET = 'e2e-hostile-page-proxy-secret-4e1a';
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // evil.example is a name of its own (a page on another site) that resolves to this machine.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--host-resolver-rules=MAP evil.example 127.0.0.1'],
  });
});
afterAll(async () => {
  await browser?.close();
});

describe.each(ACCESS_MODES)('a cross-origin page against a stack with $name', (mode) => {
  const stack = stackForFile(`hostile-page-${mode.token ? 'token' : 'loopback'}`, { ...mode.env, PROXY_SECRET });

  it('opens no socket and reads no secret, from another site or another loopback port', async () => {
    const { url, pid, ports } = stack();
    const auth: Record<string, string> = mode.token ? { authorization: `Bearer ${mode.token}` } : {};
    const created = await fetch(`${url}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ maxRetries: 1 }) });
    const runId = runSummarySchema.parse(await created.json()).id;
    const site = new HostileSite({ ports: listeningPorts(pid).map((l) => l.port), workerPort: ports.worker, runId });
    const sitePort = await site.listen();
    try {
      for (const origin of [`http://evil.example:${sitePort}`, `http://127.0.0.1:${sitePort}`]) {
        const page = await browser.newPage();
        await page.goto(`${origin}/`);
        await page.waitForFunction(() => document.title === 'done', undefined, { timeout: 240_000 });
        await page.close();
      }
      expect(site.reports.map((r) => r.origin)).toEqual([`http://evil.example:${sitePort}`, `http://127.0.0.1:${sitePort}`]);
      for (const report of site.reports) {
        const opened = report.tries.filter((t) => t.outcome.startsWith('opened'));
        const readable = report.tries.filter((t) => t.read.length > 0);
        console.log(`[hostile page] ${mode.name}, ${report.origin}: ${report.tries.length} tries, ${opened.length} sockets opened, ${readable.length} answers readable (${[...new Set(readable.map((t) => `${t.what.replace(/ http:\/\/127\.0\.0\.1:\d+/, ' ')} ${t.outcome}`))].join(', ')})`);
        expect(report.tries.length).toBeGreaterThan(50);
        expect(opened).toEqual([]);
        const everything = JSON.stringify(report);
        expect(everything).not.toContain(PROXY_SECRET);
        if (mode.token) expect(everything).not.toContain(mode.token);
        // The run's own data is not readable either: no answer the page could read names the run.
        expect(readable.filter((t) => t.read.includes(runId) && !t.what.includes(runId))).toEqual([]);
        expect(readable.filter((t) => t.read.includes('"events"') || t.read.includes('"status"'))).toEqual([]);
      }
    } finally {
      await site.close();
    }
  });
});
