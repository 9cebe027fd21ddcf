// report.html's timeline: one inline SVG row per level (schema/timeline.ts's fold), the level's bar
// with its attempts drawn over it and the time it waited for a person hatched, on one shared time axis.
import type { Span } from '../../schema/timeline.ts';
import { duration, esc } from './report-markup.ts';

const WIDTH = 900;
const LABEL = 90;
const ROW = 26;
const AXIS = 22;

const FILL: Record<Span['status'], string> = {
  ok: '#3a7d44',
  error: '#b3403a',
  interrupted: '#c98a1b',
  open: '#5877a8',
};

/** One bar: a rect with its figures as a tooltip. */
function bar(kind: string, box: { x: number; y: number; width: number; height: number }, fill: string, title: string) {
  const { x, y, width, height } = box;
  const place = `x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${height}"`;
  const opacity = kind === 'level' ? ' fill-opacity="0.35"' : '';
  return `<rect class="${kind}-bar" ${place} fill="${fill}"${opacity}><title>${esc(title)}</title></rect>`;
}

/** The timeline section from the level spans; the axis spans the run's first start to its last end. */
export function timelineSection(levels: readonly Span[]): string {
  if (!levels.length) return '<section id="timeline"><h2>Timeline</h2><p>No level was started.</p></section>';
  const starts = levels.map((l) => Date.parse(l.start));
  const from = Math.min(...starts);
  const to = Math.max(...levels.map((l, i) => (starts[i] ?? from) + l.durationMs), from + 1);
  const x = (at: number) => LABEL + ((at - from) / (to - from)) * (WIDTH - LABEL - 10);
  const w = (ms: number) => Math.max(2, (ms / (to - from)) * (WIDTH - LABEL - 10));
  const rows = levels.map((level, i) => {
    const y = AXIS + i * ROW;
    const inner = level.children
      .filter((c) => c.kind === 'attempt' || c.kind === 'wait')
      .map((c) =>
        bar(
          c.kind,
          { x: x(Date.parse(c.start)), y: y + 6, width: w(c.durationMs), height: ROW - 14 },
          c.kind === 'wait' ? 'url(#wait)' : FILL[c.status],
          `${c.name}: ${c.status}, ${duration(c.durationMs)}`,
        ),
      );
    const whole = bar(
      'level',
      { x: x(starts[i] ?? from), y: y + 2, width: w(level.durationMs), height: ROW - 6 },
      FILL[level.status],
      `level ${level.level}: ${level.status}, ${duration(level.durationMs)}`,
    );
    const label = `<text x="4" y="${y + ROW / 2 + 4}">level ${level.level}</text>`;
    return `<g data-level="${level.level}">${label}${whole}${inner.join('')}</g>`;
  });
  const height = AXIS + levels.length * ROW + 4;
  const axis =
    `<text x="${LABEL}" y="14">0 s</text>` +
    `<text x="${WIDTH - 10}" y="14" text-anchor="end">${duration(to - from)}</text>`;
  const defs =
    '<defs><pattern id="wait" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect width="3" height="6" fill="#8a63b8"/></pattern></defs>';
  const svg =
    `<svg role="img" aria-label="Timeline: one bar per level" viewBox="0 0 ${WIDTH} ${height}" width="100%" ` +
    `font-size="12">${defs}${axis}${rows.join('')}</svg>`;
  return (
    `<section id="timeline"><h2>Timeline</h2>${svg}` +
    '<p class="note">Each level\'s bar spans its first to its last event; inside it, each attempt (green solved, ' +
    'red failed, amber interrupted) and, hatched, the time it waited for a person. Hover for figures.</p></section>'
  );
}
