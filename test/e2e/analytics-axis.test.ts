// The analytics page's "Runs over time" axis fits its data (issue 32): one hour, one day and one month of runs,
// and a window asked for, drawn by the page's own chart code (chart-specs.ts, bundled with esbuild) in real uPlot
// in Chromium; the labels uPlot drew are read back. Before, one hour of runs drew January 2027 to July 2029.
import { build } from 'esbuild';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsSeries } from '../../schema/analytics.ts';
import { launchChromium } from '../support/browser.ts';

const ENTRY = `
import uPlot from 'uplot';
import { runsOverTime } from './chart-specs.ts';
window.drawRuns = async (series, chartWindow) => {
  const box = document.createElement('div');
  document.body.append(box);
  const spec = runsOverTime(series, (opts) => uPlot.paths.bars(opts), chartWindow);
  const chart = new uPlot({ ...spec.options, width: 900, height: 220 }, spec.data, box);
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  // _values: the x axis's tick labels as uPlot drew them on the canvas.
  return { min: chart.scales.x.min, max: chart.scales.x.max, labels: chart.axes[0]._values };
};`;

type Drawn = { min: number; max: number; labels: string[] };
const hour = (iso: string, n: number) => new Date(Date.parse(iso) + n * 3_600_000).toISOString();
const series = (bucket: 'hour' | 'day', times: string[]): AnalyticsSeries => ({
  bucket,
  points: times.map((t) => ({
    t,
    runs: 2,
    byStatus: { completed: 1, failed: 1 },
    modelCalls: 0,
    errors: 0,
    tokens: 0,
    costUsd: 0,
    avgLatencyMs: null,
  })),
});
const seconds = (iso: string) => Date.parse(iso) / 1000;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: join(import.meta.dirname, '../../web/components/analytics'), loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    logLevel: 'silent',
  });
  browser = await launchChromium();
  // uPlot labels in the browser's zone: UTC, so the expected labels do not depend on the machine.
  page = await (await browser.newContext({ timezoneId: 'UTC', locale: 'en-US' })).newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const draw = (s: AnalyticsSeries, chartWindow: { from?: string; to?: string } = {}) =>
  page.evaluate(([s, w]) => (window as unknown as { drawRuns: (...a: unknown[]) => Promise<Drawn> }).drawRuns(s, w), [
    s,
    chartWindow,
  ] as const);

/** Every year a label names (uPlot writes 2-digit years as m/d/yy and 4-digit ones alone). */
const yearsIn = (labels: string[]) =>
  new Set(
    labels.flatMap((l) =>
      [...l.matchAll(/\b\d{1,2}\/\d{1,2}\/(\d\d)\b|\b(20\d\d)\b/g)].map((m) => m[2] ?? `20${m[1]}`),
    ),
  );

describe('Runs over time: the axis spans the data or the window asked for', () => {
  it('one hour of runs: from half an hour before to half an hour after, labelled in minutes of that day', async () => {
    const drawn = await draw(series('hour', ['2026-11-24T21:00:00.000Z']));
    expect([drawn.min, drawn.max]).toEqual([seconds('2026-11-24T20:30:00Z'), seconds('2026-11-24T21:30:00Z')]);
    expect(drawn.labels.length).toBeGreaterThan(1);
    expect(drawn.labels.join(' ')).toMatch(/11\/24\/26/);
    expect(
      drawn.labels.every((l) => /^\d{1,2}:\d\d[ap]m/.test(l)),
      drawn.labels.join(' | '),
    ).toBe(true);
    expect(yearsIn(drawn.labels)).toEqual(new Set(['2026']));
  });

  it('one day of runs, by hour: the day, labelled in hours', async () => {
    const times = Array.from({ length: 24 }, (_, i) => hour('2026-11-24T00:00:00.000Z', i));
    const drawn = await draw(series('hour', times));
    expect([drawn.min, drawn.max]).toEqual([seconds('2026-11-23T23:30:00Z'), seconds('2026-11-24T23:30:00Z')]);
    expect(
      drawn.labels.every((l) => /^\d{1,2}(:\d\d)?[ap]m/.test(l)),
      drawn.labels.join(' | '),
    ).toBe(true);
    expect(yearsIn(drawn.labels)).toEqual(new Set(['2026']));
  });

  it('one month of runs, by day: the month, labelled in days', async () => {
    const times = Array.from({ length: 30 }, (_, i) => new Date(Date.parse('2026-10-26T00:00:00Z') + i * 86_400_000));
    const drawn = await draw(
      series(
        'day',
        times.map((t) => t.toISOString()),
      ),
    );
    expect([drawn.min, drawn.max]).toEqual([seconds('2026-10-25T12:00:00Z'), seconds('2026-11-24T12:00:00Z')]);
    expect(
      drawn.labels.every((l) => /^\d{1,2}\/\d{1,2}/.test(l)),
      drawn.labels.join(' | '),
    ).toBe(true);
    expect(yearsIn(drawn.labels)).toEqual(new Set(['2026']));
  });

  it('a window asked for (the last day) spans the window, however few runs it holds', async () => {
    const from = '2026-11-23T21:00:00.000Z';
    const to = '2026-11-24T21:00:00.000Z';
    const drawn = await draw(series('hour', ['2026-11-24T20:00:00.000Z']), { from, to });
    expect([drawn.min, drawn.max]).toEqual([seconds(from), seconds(to)]);
    expect(yearsIn(drawn.labels)).toEqual(new Set(['2026']));
  });
});
