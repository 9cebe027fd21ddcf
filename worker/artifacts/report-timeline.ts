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
    const start = Date.parse(level.start);
    const title = `level ${level.level}: ${level.status}, ${duration(level.durationMs)}`;
    const inner = level.children
      .filter((c) => c.kind === 'attempt' || c.kind === 'wait')
      .map((c) => {
        const fill = c.kind === 'wait' ? 'url(#wait)' : FILL[c.status];
        const what = `${c.name}: ${c.status}, ${duration(c.durationMs)}`;
        return `<rect class="${c.kind}-bar" x="${x(Date.parse(c.start)).toFixed(1)}" y="${y + 6}" width="${w(c.durationMs).toFixed(1)}" height="${ROW - 14}" fill="${fill}"><title>${esc(what)}</title></rect>`;
      })
      .join('');
    return (
      `<g data-level="${level.level}"><text x="4" y="${y + ROW / 2 + 4}">level ${level.level}</text>` +
      `<rect class="level-bar" x="${x(start).toFixed(1)}" y="${y + 2}" width="${w(level.durationMs).toFixed(1)}" height="${ROW - 6}" fill="${FILL[level.status]}" fill-opacity="0.35"><title>${esc(title)}</title></rect>${inner}</g>`
    );
  });
  const height = AXIS + levels.length * ROW + 4;
  const axis = `<text x="${LABEL}" y="14">0 s</text><text x="${WIDTH - 10}" y="14" text-anchor="end">${duration(to - from)}</text>`;
  const defs =
    '<defs><pattern id="wait" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect width="3" height="6" fill="#8a63b8"/></pattern></defs>';
  return (
    '<section id="timeline"><h2>Timeline</h2>' +
    `<svg role="img" aria-label="Timeline: one bar per level" viewBox="0 0 ${WIDTH} ${height}" width="100%" font-size="12">${defs}${axis}${rows.join('')}</svg>` +
    '<p class="note">Each level\'s bar spans its first to its last event; inside it, each attempt (green solved, red failed, ' +
    'amber interrupted) and, hatched, the time it waited for a person. Hover for figures.</p></section>'
  );
}
