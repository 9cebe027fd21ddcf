// One entry of the agent's story (web/components/chat-log.tsx): thinking, a command, its output (binary
// output as its size and an escaped preview), a level change, a lesson, a hint, an error or a pause, and
// a person taking or closing the shared terminal (its output shows in the terminal, not here).
import type { ReactNode } from 'react';
import type { RunEvent } from '../../schema/protocol.ts';
import { answererText } from '../../schema/answered-by.ts';
import { binarySummary, looksBinary } from '../lib/binary-preview.ts';
import { formatDuration, pauseReasonText, STATUS_LABELS, TERMINAL_END_TEXT } from '../lib/format.ts';
import { Shown } from './shown-text.tsx';

const SHORT_OUTPUT_LINES = 6;

/** One event as the chat shows it; null for an event the chat leaves out. */
export function Entry({ event }: { event: RunEvent }): ReactNode {
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
    case 'forked':
      return (
        <p className="fork-mark">
          <span className="tag tag-user">fork</span> this run starts here, forked from{' '}
          <a href={`/run?id=${encodeURIComponent(event.parentId)}#seq-${event.forkSeq}`}>
            <code>{event.parentId}</code> at step {event.forkSeq}
          </a>
          ; the events above are the parent's
          {event.changes.model && (
            <>
              {' '}
              (model <Shown text={event.changes.model} />)
            </>
          )}
        </p>
      );
    case 'message_sent':
      return (
        <p>
          <span className="tag tag-user">you</span> messaged the agent:{' '}
          <q>
            <Shown text={event.text} />
          </q>{' '}
          <span className="muted">
            (<Shown text={answererText(event.by)} />)
          </span>
        </p>
      );
    case 'takeover_started':
      return (
        <p>
          <span className="tag tag-user">you</span> took the terminal at level {event.level} ({event.cols}×{event.rows}){' '}
          <span className="muted">
            (<Shown text={answererText(event.by)} />)
          </span>
        </p>
      );
    case 'takeover_ended':
      return (
        <p>
          <span className="tag tag-user">terminal</span> The terminal closed ({TERMINAL_END_TEXT[event.reason]}) after{' '}
          {formatDuration(event.durationMs)}
          {event.commands ? `, ${event.commands} ${event.commands === 1 ? 'command' : 'commands'}` : ''}
          {event.provedLevel !== undefined && <>; level {event.provedLevel} proven</>}
          {event.message && (
            <>
              {' '}
              — <Shown text={event.message} />
            </>
          )}
        </p>
      );
    case 'message_read':
      return <p className="muted">The agent read your message (#{event.messageSeq}) at its turn here.</p>;
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
  const whole = [stdout, stderr].filter(Boolean).join('\n').replace(/\n$/, '');
  const text = looksBinary(whole) ? binarySummary(whole) : whole;
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
