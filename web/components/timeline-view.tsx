'use client';
// The run's timeline as a waterfall: levels, their attempts and nodes as bars on one time axis, with
// the model calls and commands inside each node. A model call opens the inspector. The spans come
// from buildTimeline (schema/timeline.ts) over the events the page already holds, the same fold as
// GET /api/runs/:id/timeline.
import { useMemo, useState } from 'react';
import type { RunEvent } from '../../schema/protocol.ts';
import type { Span } from '../../schema/timeline.ts';
import { buildTimeline } from '../../schema/timeline.ts';
import { LlmCallInspector } from './llm-call-inspector.tsx';
import { Shown } from './shown-text.tsx';

function bounds(spans: readonly Span[]): { start: number; total: number } {
  const start = Math.min(...spans.map((s) => Date.parse(s.start)));
  const end = Math.max(...spans.map((s) => Date.parse(s.start) + s.durationMs));
  return { start, total: Math.max(1, end - start) };
}

export function TimelineView({ runId, events }: { runId: string; events: readonly RunEvent[] }) {
  const spans = useMemo(() => buildTimeline(events), [events]);
  const [inspecting, setInspecting] = useState<string | null>(null);
  if (spans.length === 0) return null;
  const axis = bounds(spans);

  const row = (span: Span, depth: number) => {
    const left = ((Date.parse(span.start) - axis.start) / axis.total) * 100;
    const width = Math.max(0.4, (span.durationMs / axis.total) * 100);
    const label =
      span.kind === 'model_call' ? `${span.name} · ${span.promptTokens + span.completionTokens} tokens` : span.name;
    return (
      <li
        key={`${span.kind}-${span.seq}-${span.name}`}
        className={`span span-${span.kind} span-${span.status}`}
        data-kind={span.kind}
        data-status={span.status}
      >
        <div className="span-row" style={{ paddingLeft: `${depth * 0.75}rem` }}>
          {span.kind === 'model_call' && span.callId ? (
            <button
              type="button"
              className="span-label link"
              onClick={() => setInspecting(span.callId!)}
              title="See the request and response"
            >
              <Shown text={label} />
            </button>
          ) : (
            <span className="span-label">
              <Shown text={label} />
            </span>
          )}
          <span className="span-track" aria-hidden="true">
            <span className="span-bar" style={{ left: `${left}%`, width: `${width}%` }} />
          </span>
          <span className="span-time">
            {span.durationMs < 1000 ? `${Math.round(span.durationMs)} ms` : `${(span.durationMs / 1000).toFixed(1)} s`}
          </span>
        </div>
        {span.children.length > 0 && <ul>{span.children.map((child) => row(child, depth + 1))}</ul>}
      </li>
    );
  };

  return (
    <section className="panel timeline" aria-labelledby="timeline-title">
      <details>
        <summary>
          <h2 id="timeline-title">Timeline</h2>{' '}
          <span className="muted">levels, attempts, nodes, model calls and commands</span>
        </summary>
        <ul className="spans">{spans.map((span) => row(span, 0))}</ul>
      </details>
      {inspecting && <LlmCallInspector runId={runId} callId={inspecting} onClose={() => setInspecting(null)} />}
    </section>
  );
}
