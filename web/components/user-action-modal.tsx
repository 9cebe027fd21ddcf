'use client';
// The question a paused run asks a person: why it stopped (reason, level, retries, last error,
// lessons), and the four answers. Every open tab shows it; it closes everywhere once the run records
// an answer (user_action_resolved). A refused answer is explained in the dialog, never swallowed.
// At a budget pause the answers are Raise (raise-form.tsx) and Stop: continue, hint and password are not.
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { RunCaps } from '../../schema/budget.ts';
import type { PendingAction } from '../../schema/protocol.ts';
import { passwordUserOf } from '../../schema/pause-password.ts';
import { runActionSchema } from '../../schema/run.ts';
import type { RunAction } from '../../schema/run.ts';
import { ApiFailure, sendAction } from '../lib/api.ts';
import { pauseReasonText } from '../lib/format.ts';
import { RaiseForm } from './raise-form.tsx';
import { StopButton } from './stop-button.tsx';
import { TroubleCard } from './trouble-card.tsx';
import { Shown } from './shown-text.tsx';
import type { TroubleCard as Card } from '../../schema/failures.ts';

type Mode = 'choose' | 'hint' | 'password';

export function UserActionModal({
  runId,
  pending,
  card,
  caps,
  open,
  onDismiss,
  onFork,
}: {
  runId: string;
  pending: PendingAction;
  card: Card | null;
  /** The run's caps in force, for the Raise form at a budget pause. */
  caps: RunCaps;
  open: boolean;
  onDismiss: () => void;
  /** "Fork from here": a new run from this pause, with another hint or model (fork-panel.tsx). */
  onFork?: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [mode, setMode] = useState<Mode>('choose');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const budget = pending.reason === 'budget_exceeded';
  const fieldId = useId();

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);

  // A new question starts clean.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependency is the trigger, not a value read inside.
  useEffect(() => {
    setMode('choose');
    setText('');
    setProblem(null);
    setBusy(false);
  }, [pending]);

  // The run may ask again at once (a hint that solves a level, then a pause a few levels on, within one
  // frame): a different question replacing the answered one is opened afresh, so focus is on Continue
  // again and a screen reader announces it, instead of staying in a dialog whose field went away.
  const question = JSON.stringify(pending);
  const asked = useRef(question);
  useEffect(() => {
    const el = dialog.current;
    if (asked.current === question) return;
    asked.current = question;
    if (!el?.open) return;
    el.close();
    el.showModal();
  }, [question]);

  const answer = async (action: RunAction) => {
    const checked = runActionSchema.safeParse(action);
    if (!checked.success)
      return setProblem(
        checked.error.issues.map((i) => `${String(i.path.at(-1) ?? 'answer')} ${i.message}`).join('; '),
      );
    setBusy(true);
    setProblem(null);
    try {
      await sendAction(runId, checked.data);
      // The dialog closes when the run records the answer, in this tab and every other.
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiFailure && err.status === 409)
        setProblem(
          `The run did not take this answer: ${err.message}. It may have been answered in another tab or stopped.`,
        );
      else setProblem(err instanceof Error ? err.message : String(err));
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void answer(mode === 'hint' ? { action: 'continue', hint: text } : { action: 'password', value: text });
  };

  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-labelledby={titleId}
      onCancel={onDismiss}
      data-testid="user-action-modal"
      data-level={pending.level}
      data-reason={pending.reason}
    >
      <h2 id={titleId}>The run needs you</h2>
      <p className="modal-reason" data-reason={pending.reason}>
        {pauseReasonText(pending.reason, pending.level, pending.maxRetries)}
      </p>
      <dl className="modal-facts">
        <div>
          <dt>Level</dt>
          <dd>{pending.level}</dd>
        </div>
        {!budget && (
          <div>
            <dt>Retries used</dt>
            <dd>
              {pending.retryCount} of {pending.maxRetries}
            </dd>
          </div>
        )}
      </dl>
      {/* At a budget pause the last error is the breach, which the Raise form says. */}
      {pending.lastError && !budget && (
        <p className="modal-error">
          <strong>Last error:</strong> <Shown text={pending.lastError} />
        </p>
      )}
      {card && <TroubleCard card={card} compact />}
      {pending.finalAttempt && (
        <div className="modal-final" data-testid="final-attempt">
          <h3>The final attempt</h3>
          <p>
            Ran{' '}
            {pending.finalAttempt.commands.length
              ? pending.finalAttempt.commands.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a pause's commands never change or reorder.
                  <code key={i} className="final-command">
                    <Shown text={c} />
                  </code>
                ))
              : 'no commands'}
            : <Shown text={pending.finalAttempt.outcome} />.
          </p>
        </div>
      )}
      {pending.lessons.length > 0 && (
        <>
          <h3>Lessons so far</h3>
          <ul className="lessons">
            {pending.lessons.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a pause's lessons never change or reorder.
              <li key={i}>
                <Shown text={l.text} /> <span className="muted">({l.source})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {budget ? (
        <>
          {/* Keyed by the question: a new pause starts from its own breach. */}
          <RaiseForm
            key={question}
            breach={pending.breach}
            caps={caps}
            busy={busy}
            onRaise={(action) => void answer(action)}
          />
          <div className="modal-actions">
            <StopButton key={question} label="Stop" disabled={busy} onStop={() => void answer({ action: 'stop' })} />
          </div>
        </>
      ) : mode === 'choose' ? (
        <div className="modal-actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void answer({ action: 'continue' })}>
            Continue
          </button>
          <button type="button" disabled={busy} onClick={() => setMode('hint')}>
            Continue with hint
          </button>
          <button type="button" disabled={busy} onClick={() => setMode('password')}>
            Provide password
          </button>
          {onFork && (
            <button type="button" data-action="fork" disabled={busy} onClick={onFork}>
              Fork from here
            </button>
          )}
          {/* Keyed by the question: a new one never opens already asking to stop. */}
          <StopButton
            key={JSON.stringify(pending)}
            label="Stop"
            disabled={busy}
            onStop={() => void answer({ action: 'stop' })}
          />
        </div>
      ) : (
        <form onSubmit={submit} className="modal-form">
          <label htmlFor={fieldId}>
            {mode === 'hint'
              ? 'Hint for the agent (put a command in `backticks`)'
              : `Password for ${passwordUserOf(pending)}`}
          </label>
          {mode === 'hint' ? (
            <textarea
              id={fieldId}
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={3}
              autoFocus
              aria-describedby={problem ? `${fieldId}-problem` : undefined}
            />
          ) : (
            <input
              id={fieldId}
              value={text}
              onChange={(e) => setText(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              autoFocus
              aria-describedby={problem ? `${fieldId}-problem` : undefined}
            />
          )}
          <div className="modal-actions">
            <button type="submit" className="primary" disabled={busy}>
              {mode === 'hint' ? 'Send hint and continue' : 'Try this password'}
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                setMode('choose');
                setProblem(null);
              }}
            >
              Back
            </button>
          </div>
        </form>
      )}
      {problem && (
        <p id={`${fieldId}-problem`} role="alert" className="problem">
          {problem}
        </p>
      )}
      {busy && (
        <p className="muted" role="status">
          Sent; waiting for the run to confirm…
        </p>
      )}
      <p className="muted small">Esc closes this window; the run keeps waiting until someone answers.</p>
    </dialog>
  );
}
