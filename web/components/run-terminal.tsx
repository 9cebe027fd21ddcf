'use client';
// The run's shared terminal on the run page: take it (or, on a human run, play the level), type in it,
// hand it back; every other tab watches the same screen read-only, and a finished run shows what the
// people did in it. The bytes come from the page's socket (web/lib/use-run-terminal.ts).
import { useEffect, useRef, useState } from 'react';
import { ANSWERED_BY } from '../../schema/answered-by.ts';
import type { ClientMessage, PendingAction } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { FINAL_STATUSES, HUMAN_MODEL } from '../../schema/run.ts';
import { splitTerminalInput } from '../../schema/terminal-input.ts';
import type { TerminalSize } from '../../schema/terminal.ts';
import type { RunTerminalLink } from '../lib/use-run-terminal.ts';
import { Shown } from './shown-text.tsx';
import type { XtermHandle } from './xterm-view.tsx';
import { XtermView } from './xterm-view.tsx';

/** Heights a holder may pick: a short screen makes a pager stop (the way into vi on level 25). */
const ROW_CHOICES = [48, 24, 12, 6] as const;

type Props = {
  run: RunSummary;
  pending: PendingAction | null;
  terminal: RunTerminalLink;
  send: (message: ClientMessage) => boolean;
  /** A viewer's or a share link's page: it may watch the terminal, never take it. */
  readOnly?: boolean;
};

export function RunTerminal({ run, pending, terminal, send, readOnly = false }: Props) {
  const { state, problem, waiting, sessions, feed } = terminal;
  const handle = useRef<XtermHandle | null>(null);
  const takeOnReady = useRef(false);
  const [wanted, setWanted] = useState(false);
  const [rows, setRows] = useState<number | null>(null);
  // Someone holds it or asked for it (open once the login is up; until then the agent finishes its step).
  const held = state !== null && state.by !== null;
  const holding = held && state.open && state.you;
  const opening = held && !state.open && state.you;
  const watching = held && !state.you;
  const ended = FINAL_STATUSES.includes(run.status);
  const canTake = !readOnly && !ended && run.status !== 'queued' && !held;
  const turn = pending?.reason === 'human_turn' ? pending.level : null;
  const level = state?.level ?? pending?.level ?? run.currentLevel;
  const panel = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!holding) return;
    handle.current?.focus();
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [holding]);

  const sendTakeover = (size: TerminalSize) => {
    terminal.expect();
    if (!send({ type: 'user_action', action: 'takeover', ...size }))
      terminal.refuse('Not connected to the run right now; wait for the connection dot to turn green and try again.');
  };
  const take = () => {
    setWanted(true);
    if (handle.current) return sendTakeover(handle.current.fitSize());
    // The screen is made first, so the terminal opens at the size it will be shown at.
    takeOnReady.current = true;
  };
  // Answered like a takeover: the server's next `terminal` message, or an error frame shown here.
  const handBack = () => {
    terminal.expect();
    if (!send({ type: 'user_action', action: 'handback' }))
      terminal.refuse('Not connected to the run right now; wait for the connection dot to turn green and try again.');
  };
  const onReady = (made: XtermHandle) => {
    handle.current = made;
    if (!takeOnReady.current) return;
    takeOnReady.current = false;
    sendTakeover(made.fitSize());
  };

  const shown = wanted || sessions > 0 || held;
  if (!shown && !canTake) return null;
  return (
    <section
      ref={panel}
      className="run-terminal panel"
      aria-labelledby="run-terminal-title"
      data-terminal={holding ? 'held' : opening ? 'opening' : watching ? 'watching' : 'closed'}
    >
      <div className="run-terminal-bar">
        <h2 id="run-terminal-title">Shared terminal</h2>
        {holding && (
          <button type="button" className="primary" disabled={waiting} onClick={handBack}>
            {waiting ? 'Handing back…' : 'Hand back'}
          </button>
        )}
        {holding && (
          <label className="run-terminal-rows">
            Rows{' '}
            <select
              value={rows ?? ''}
              onChange={(e) => setRows(e.target.value === '' ? null : Number(e.target.value))}
              aria-label="Terminal rows"
            >
              <option value="">fit the box</option>
              {ROW_CHOICES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        )}
        {canTake && (
          <button type="button" className="primary" disabled={waiting} onClick={take}>
            {waiting ? 'Asking for the terminal…' : turn !== null ? `Play level ${turn}` : 'Take the terminal'}
          </button>
        )}
      </div>
      <p className="muted run-terminal-status" role="status">
        {holding ? (
          <>
            You hold the terminal, logged in as bandit{level}. What you type goes to the shell;{' '}
            {run.config.model === HUMAN_MODEL
              ? 'a password you find that logs in as the next level solves this one.'
              : 'the agent waits until you hand it back.'}
          </>
        ) : opening ? (
          'Opening the terminal: the agent finishes its current step, then the shell logs in…'
        ) : watching ? (
          <>
            <Shown text={state.by ?? 'Someone'} /> holds the terminal
            {state.open ? ` (level ${state.level ?? level})` : ''}
            {state.by === ANSWERED_BY.web ? ' in another tab' : ''}. You are watching; only they can type.
          </>
        ) : canTake ? (
          turn !== null ? (
            `Your turn: play level ${turn} here, logged in as bandit${turn}.`
          ) : (
            `Pauses the agent after its current step and opens a shell as bandit${level} here.`
          )
        ) : (
          'What people did in this run’s terminal, as recorded.'
        )}
      </p>
      {problem && (
        <p role="alert" className="problem">
          <Shown text={problem} />
        </p>
      )}
      {shown && (
        <XtermView
          feed={feed}
          interactive={holding}
          viewSize={watching ? state.size : null}
          onInput={(data) => {
            for (const chunk of splitTerminalInput(data)) send({ type: 'terminal_input', data: chunk });
          }}
          onResize={(size) => send({ type: 'terminal_resize', ...size })}
          rows={rows}
          onReady={onReady}
        />
      )}
    </section>
  );
}
