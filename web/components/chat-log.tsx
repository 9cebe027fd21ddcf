'use client';
// The agent's story, one entry per event worth reading: thinking, commands and their output, level
// changes, lessons, hints, errors and pauses. Scheduling detail (graph nodes, model call stats) stays
// out; the counters and the terminal cover it.
import { answererText } from '../../schema/answered-by.ts';
import type { ReactNode } from 'react';
import type { LiveText, RunEvent } from '../../schema/protocol.ts';
import { pauseReasonText, STATUS_LABELS } from '../lib/format.ts';
import { useStickToBottom } from '../lib/use-stick-to-bottom.ts';
import { Shown } from './shown-text.tsx';

const HIDDEN: ReadonlySet<RunEvent['type']> = new Set(['node', 'llm_call', 'run_created']);
const SHORT_OUTPUT_LINES = 6;

export function ChatLog({ events, live = null }: { events: readonly RunEvent[]; live?: LiveText | null }) {
  const visible = events.filter((e) => !HIDDEN.has(e.type));
  const ref = useStickToBottom<HTMLOListElement>(visible.length + (live?.text.length ?? 0));
  return (
    <section className="chat panel" aria-labelledby="chat-title">
      <h2 id="chat-title">Agent</h2>
      {visible.length === 0 && <p className="muted">Waiting for the agent's first move…</p>}
      <ol
        ref={ref}
        className="chat-log"
        aria-live="polite"
        aria-relevant="additions"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard.
        tabIndex={0}
        aria-label="What the agent did, oldest first"
      >
        {visible.map((event) => (
          <li
            key={event.seq}
            id={`seq-${event.seq}`}
            data-seq={event.seq}
            data-event={event.type}
            className={`entry entry-${event.type}`}
          >
            <Entry event={event} />
          </li>
        ))}
        {live && (
          <li className="entry entry-live" data-live="true" aria-busy="true">
            <p>
              <span className="tag">{live.stage === 'final' ? 'final attempt' : 'thinking'}</span>{' '}
              <Shown text={live.text} />
              <span className="cursor" aria-hidden="true">
                ▍
              </span>
            </p>
          </li>
        )}
      </ol>
    </section>
  );
}

function Entry({ event }: { event: RunEvent }): ReactNode {
  switch (event.type) {
    case 'thinking':
      return (
        <p>
          <span className="tag">thinking</span> <Shown text={event.text} />
        </p>
      );
    case 'command':
      return (
        <p>
          <span className="tag">command</span>{' '}
          <code>
            $ <Shown text={event.command} />
          </code>
        </p>
      );
    case 'output':
      return (
        <Output stdout={event.stdout} stderr={event.stderr} exitCode={event.exitCode} truncated={event.truncated} />
      );
    case 'password_found':
      return (
        <p>
          <span className="tag tag-ok">password</span> found for level {event.level + 1}:{' '}
          <code>
            <Shown text={event.password} />
          </code>
        </p>
      );
    case 'level_started':
      return (
        <p className="divider">
          Level {event.level} — attempt {event.attempt}
        </p>
      );
    case 'level_complete':
      return (
        <p className="divider divider-ok">
          Level {event.level} solved with {event.commands} {event.commands === 1 ? 'command' : 'commands'} → level{' '}
          {event.nextLevel}
        </p>
      );
    case 'attempt_failed':
      return (
        <div>
          <p>
            <span className="tag tag-warn">attempt {event.attempt} failed</span> {event.reason.replaceAll('_', ' ')} (
            {event.retryCount}/{event.maxRetries} retries used)
          </p>
          {event.lessons.length > 0 && (
            <ul className="lessons">
              {event.lessons.map((l, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: an event's lessons never change or reorder.
                <li key={i}>
                  <Shown text={l.text} />
                </li>
              ))}
            </ul>
          )}
        </div>
      );
    case 'error':
      return (
        <p>
          <span className="tag tag-error">error</span> <Shown text={event.message} />
        </p>
      );
    case 'user_action_required':
      return (
        <p>
          <span className="tag tag-warn">waiting for you</span>{' '}
          {pauseReasonText(event.reason, event.level, event.maxRetries)}
        </p>
      );
    case 'user_action_resolved':
      return (
        <p>
          <span className="tag tag-user">you</span>{' '}
          {event.action === 'continue'
            ? 'continued'
            : event.action === 'password'
              ? 'gave a password'
              : 'stopped the run'}
          {event.hint && (
            <>
              {' '}
              with the hint:{' '}
              <q>
                <Shown text={event.hint} />
              </q>
            </>
          )}{' '}
          <span className="muted">
            (<Shown text={answererText(event.by)} />)
          </span>
        </p>
      );
    case 'status_changed':
      return (
        <p className="muted">
          Status: {STATUS_LABELS[event.to]}
          {event.reason ? (
            <>
              {' '}
              — <Shown text={event.reason} />
            </>
          ) : (
            ''
          )}
        </p>
      );
    case 'run_complete':
      return (
        <p className="divider">
          Run {event.status}: {event.levelsSolved} {event.levelsSolved === 1 ? 'level' : 'levels'} solved
          {event.reason ? (
            <>
              {' '}
              (<Shown text={event.reason} />)
            </>
          ) : (
            ''
          )}
        </p>
      );
    default:
      return null;
  }
}

function Output({
  stdout,
  stderr,
  exitCode,
  truncated,
}: {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  truncated: boolean;
}) {
  const text = [stdout, stderr].filter(Boolean).join('\n').replace(/\n$/, '');
  const lines = text.split('\n');
  const status = exitCode === 0 ? null : exitCode === null ? 'timed out' : `exit ${exitCode}`;
  const footer = [status, truncated ? 'output truncated' : null].filter(Boolean).join(', ');
  if (lines.length <= SHORT_OUTPUT_LINES) {
    return (
      <>
        <pre className="output">
          <Shown text={text || '(no output)'} />
        </pre>
        {footer && <p className="muted small">{footer}</p>}
      </>
    );
  }
  return (
    <details className="output-long">
      <summary>
        {lines.length} lines of output{footer ? ` (${footer})` : ''}
      </summary>
      <pre className="output">
        <Shown text={text} />
      </pre>
    </details>
  );
}
