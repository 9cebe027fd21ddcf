// bench/run-page: the run page in real Chromium at 5,000 and 50,000 events. A loopback server serves the
// built web app and a long run (test/support/long-run-server.ts: levels 0–32, retries, Continues) over the
// worker's protocol; the page opens it, then 400 more events arrive in a burst. Prints the time until the
// latest event shows, the JS heap and DOM size, and the slowest frames during the burst. Asserts nothing.
// Usage: node bench/run-page.ts [--events 1000,5000,50000] [--burst 400] (default: --events 5000,50000)
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '../scripts/web-build.ts';
import { launchChromium, screenshot } from '../test/support/browser.ts';
import { startLongRunServer } from '../test/support/long-run-server.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000,50000' },
    burst: { type: 'string', default: '400' },
  },
});
const SIZES = values.events.split(',').map(Number);
const BURST = Number(values.burst);
const root = dirname(dirname(fileURLToPath(import.meta.url)));
await ensureWebBuild(root);

type Figures = {
  events: number;
  shownMs: number;
  heapMb: number;
  domElements: number;
  burstShownMs: number;
  frames: number;
  p95FrameMs: number;
  worstFrameMs: number;
};

/** Records in the page when the element for `seq` first exists, and every animation frame's delta once asked. */
function recorder(seq: number) {
  const w = window as unknown as { shownAt: Record<number, number>; deltas: number[] | null; want: number[] };
  w.shownAt = {};
  w.want = [seq];
  w.deltas = null;
  const check = () => {
    for (const s of w.want)
      if (w.shownAt[s] === undefined && document.getElementById(`seq-${s}`)) w.shownAt[s] = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  let last = 0;
  const tick = (t: number) => {
    if (w.deltas && last) w.deltas.push(t - last);
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024;
}

async function measure(size: number): Promise<Figures> {
  const server = await startLongRunServer(`${root}/web/out`, size);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const last = server.log.lastSeq;
    await page.addInitScript(recorder, last);
    await page.goto(server.runUrl());
    await page.waitForFunction((s) => (window as unknown as { shownAt: Record<number, number> }).shownAt[s], last, {
      timeout: 120_000,
    });
    const shownMs = await page.evaluate(
      (s) => (window as unknown as { shownAt: Record<number, number> }).shownAt[s]!,
      last,
    );
    await page.waitForTimeout(1000);
    const heap = await heapMb(page);
    const domElements = await page.evaluate(() => document.getElementsByTagName('*').length);
    if (size === Math.max(...SIZES)) await screenshot(page, `run-page-${size}-events`);

    // The burst: 400 events in messages of 4, one every 4 ms, as a Continue's step flush sends them.
    const burst = server.log.grow(last + BURST);
    const burstLast = server.log.lastSeq;
    const start = await page.evaluate((s) => {
      const w = window as unknown as { deltas: number[] | null; want: number[] };
      w.want.push(s);
      w.deltas = [];
      return performance.now();
    }, burstLast);
    await server.send(burst, 4, 4);
    await page.waitForFunction(
      (s) => (window as unknown as { shownAt: Record<number, number> }).shownAt[s],
      burstLast,
      {
        timeout: 120_000,
      },
    );
    await page.waitForTimeout(500);
    const { shownAt, deltas } = await page.evaluate((s) => {
      const w = window as unknown as { shownAt: Record<number, number>; deltas: number[] };
      return { shownAt: w.shownAt[s]!, deltas: w.deltas };
    }, burstLast);
    if (size === Math.max(...SIZES)) {
      await page.locator('.level-strip li[data-level="3"] button').click();
      await page.locator('[data-fold-level="3"][data-open="true"]').waitFor();
      await screenshot(page, 'run-page-folded-levels');
    }
    return {
      events: size,
      shownMs,
      heapMb: heap,
      domElements,
      burstShownMs: shownAt - start,
      frames: deltas.length,
      p95FrameMs: percentile(deltas, 95),
      worstFrameMs: Math.max(...deltas),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

const rows: Figures[] = [];
for (const size of SIZES) {
  const figures = await measure(size);
  rows.push(figures);
  console.log(JSON.stringify(figures));
}
const f = (n: number, digits = 0) => n.toFixed(digits);
console.log(
  '\n| events | latest event shown | JS heap | DOM elements | burst of %d: last shown | frames | p95 frame | worst |',
  BURST,
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.events} | ${f(r.shownMs)} ms | ${f(r.heapMb, 1)} MB | ${r.domElements} | ${f(r.burstShownMs)} ms | ${r.frames} | ${f(r.p95FrameMs, 1)} ms | ${f(r.worstFrameMs, 1)} ms |`,
  );
console.log('\nTargets: latest event within 1,000 ms, heap under 150 MB, p95 frame under 50 ms.');
