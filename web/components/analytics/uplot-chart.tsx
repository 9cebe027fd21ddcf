'use client';
// One uPlot chart, sized to its box. uPlot is loaded in the browser only (it measures the page
// when imported), so the static export renders an empty, correctly sized box first; `make` builds
// the chart's options once uPlot's bar path builder is at hand.
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartSpec = { options: Omit<uPlot.Options, 'width' | 'height'>; data: uPlot.AlignedData };
export type Bars = (opts: { size: [number, number] }) => uPlot.Series.PathBuilder;

/** `source` is what the chart shows: the chart is drawn again when it changes. */
export function UplotChart({
  make,
  source,
  height = 220,
  label,
}: {
  make: (bars: Bars) => ChartSpec;
  source: unknown;
  height?: number;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const build = useRef(make);
  build.current = make;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `make` is read through a ref, so a new closure each render does not rebuild the chart.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | null = null;
    let cancelled = false;
    const resize = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height }));
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const spec = build.current((opts) => UPlot.paths.bars!(opts));
      chart = new UPlot({ ...spec.options, width: element.clientWidth, height }, spec.data, element);
      element.dataset.ready = 'true';
      resize.observe(element);
    });
    return () => {
      cancelled = true;
      resize.disconnect();
      chart?.destroy();
      delete element.dataset.ready;
    };
  }, [source, height]);
  return <div ref={box} className="chart" role="img" aria-label={label} style={{ minHeight: height }} />;
}
