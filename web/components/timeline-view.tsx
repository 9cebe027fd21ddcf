'use client';
// The run's timeline as a waterfall, collapsed to one row per level: a row opens to its attempts and
// the waits for a person, those to their nodes, nodes to their model calls and commands. Every bar sits
// on one shared time track (the label column holds the indentation), so a child lines up under its
// parent. A model call opens the inspector; a level, attempt, wait or command links to its event
// in the transcript (#seq-N). The spans are buildTimeline (schema/timeline.ts) over the
// events the page holds, the same fold as GET /api/runs/:id/timeline.
import { useMemo, useState } from 'react';
import { answererText } from '../../schema/answered-by.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { Span } from '../../schema/timeline.ts';
import { buildTimeline } from '../../schema/timeline.ts';
import { LlmCallInspector } from './llm-call-inspector.tsx';
import { Shown } from './shown-text.tsx';

/** A span as a row: its place in the tree (the key of its open state) and its depth. */
type Row = { span: Span; path: string; depth: number };

function bounds(spans: readonly Span[]): { start: number; total: number } {
  const start = Math.min(...spans.map((s) => Date.parse(s.start)));
  const end = Math.max(...spans.map((s) => Date.parse(s.start) + s.durationMs));
  return { start, total: Math.max(1, end - start) };
}

/** The rows on show: every level, and the children of each open row, in order. */
function visibleRows(spans: readonly Span[], open: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (list: readonly Span[], parent: string, depth: number) =>
    list.forEach((span, i) => {
      const path = parent ? `${parent}.${i}` : String(i);
      rows.push({ span, path, depth });
      if (open.has(path)) walk(span.children, path, depth + 1);
    });
  walk(spans, '', 0);
  return rows;
}

/** Every path that has children: what "Expand all" opens. */
function allPaths(spans: readonly Span[], parent = ''): string[] {
  return spans.flatMap((span, i) => {
    const path = parent ? `${parent}.${i}` : String(i);
    return span.children.length > 0 ? [path, ...allPaths(span.children, path)] : [];
  });
}

/** Kinds whose opening event the transcript shows, so a row can link to it (`#seq-N`). */
const IN_TRANSCRIPT: ReadonlySet<Span['kind']> = new Set(['level', 'attempt', 'wait', 'command']);

const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** What a row says: a wait names why it paused, the answer and who gave it (the title says it in full). */
function labelOf(span: Span): string {
  if (span.kind === 'model_call') return `${span.name} · ${span.promptTokens + span.completionTokens} tokens`;
  if (span.kind !== 'wait') return span.name;
  const why = (span.reason ?? 'a question').replace(/_/g, ' ');
  if (!span.answer) return `waiting for a person (${why})`;
  return `waited (${why}): ${span.answer} by ${span.answeredBy ? answererText(span.answeredBy) : 'someone'}`;
}

/** The run's waterfall, folded to levels. */
export function TimelineView({
  runId,
  events,
  forkable = false,
}: {
  runId: string;
  events: readonly RunEvent[];
  /** The reader may fork the run: each node row links to its step's fork form (#fork-N, fork-panel.tsx). */
  forkable?: boolean;
}) {
  // Folded only while the section is open: a closed timeline costs a long run's page nothing per event.
  const [shown, setShown] = useState(false);
  const spans = useMemo(() => (shown ? buildTimeline(events) : []), [shown, events]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [inspecting, setInspecting] = useState<string | null>(null);
  const rows = useMemo(() => visibleRows(spans, open), [spans, open]);
  if (events.length === 0) return null;
  const axis = spans.length > 0 ? bounds(spans) : { start: 0, total: 1 };
  const toggle = (path: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(path)) next.add(path);
      return next;
    });

  const row = ({ span, path, depth }: Row) => {
    const left = ((Date.parse(span.start) - axis.start) / axis.total) * 100;
    const width = Math.max(0.4, (span.durationMs / axis.total) * 100);
    const label = labelOf(span);
    const opens = span.children.length > 0;
    const indent = { paddingLeft: `${depth * 0.9}rem` };
    return (
      <li
        key={path}
        className={`span span-${span.kind} span-${span.status}`}
        data-kind={span.kind}
        data-status={span.status}
        data-depth={depth}
        data-seq={span.seq}
      >
        <div className="span-row">
          {span.kind === 'model_call' && span.callId ? (
            <button
              type="button"
              className="span-label link"
              style={indent}
              onClick={() => setInspecting(span.callId ?? null)}
              title="See the request and response"
            >
              <Shown text={label} />
            </button>
          ) : opens ? (
            <button
              type="button"
              className="span-label span-toggle"
              style={indent}
              aria-expanded={open.has(path)}
              onClick={() => toggle(path)}
              title={`${label} (${open.has(path) ? 'click to fold' : 'click to open'})`}
            >
              <span aria-hidden="true">{open.has(path) ? '▾ ' : '▸ '}</span>
              <Shown text={label} />
            </button>
          ) : (
            <span className="span-label" style={indent} title={label}>
              <Shown text={label} />
            </span>
          )}
          <span className="span-track" aria-hidden="true">
            <span className="span-bar" style={{ left: `${left}%`, width: `${width}%` }} />
          </span>
          <span className="span-time">
            {span.kind === 'wait' && span.status === 'open' ? 'waiting' : seconds(span.durationMs)}
          </span>
          {IN_TRANSCRIPT.has(span.kind) ? (
            <a className="span-jump" href={`#seq-${span.seq}`} title="Show this in the transcript">
              ↗<span className="sr-only"> event {span.seq} in the transcript</span>
            </a>
          ) : forkable && span.kind === 'node' ? (
            // A node's event ends its step, whose checkpoint is kept: a fork may start there (fork-panel.tsx).
            <a
              className="span-jump"
              href={`#fork-${span.seq}`}
              data-action="fork"
              title="Fork a new run from this step"
            >
              ⑂<span className="sr-only"> fork a new run from step {span.seq}</span>
            </a>
          ) : (
            <span />
          )}
        </div>
      </li>
    );
  };

  return (
    <section className="panel timeline" aria-labelledby="timeline-title">
      <details onToggle={(e) => setShown(e.currentTarget.open)}>
        <summary>
          <h2 id="timeline-title">Timeline</h2>{' '}
          <span className="muted">levels; open one for its attempts, waits, nodes, model calls and commands</span>
        </summary>
        {shown && spans.length === 0 && <p className="muted">No level has started yet.</p>}
        {spans.length > 0 && (
          <>
            <div className="timeline-tools">
              <button type="button" onClick={() => setOpen(new Set(allPaths(spans)))}>
                Expand all
              </button>
              <button type="button" onClick={() => setOpen(new Set())}>
                Collapse to levels
              </button>
              <span className="muted">every bar on one time axis, {seconds(axis.total)} long</span>
            </div>
            <ul className="spans">{rows.map(row)}</ul>
          </>
        )}
      </details>
      {inspecting && <LlmCallInspector runId={runId} callId={inspecting} onClose={() => setInspecting(null)} />}
    </section>
  );
}
