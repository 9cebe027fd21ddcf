'use client';
// Message the agent of a running run (issue 30): the text goes out as the `message` action and the
// agent reads it at its next model turn, without a pause. The chat shows when it was sent and read.
import { useState } from 'react';
import type { FormEvent } from 'react';
import { sendAction } from '../lib/api.ts';

/** The most characters a message may have (hintSchema in schema/run.ts). */
const MAX_CHARS = 2000;

/** A one-line message form for the run `runId`; disabled while a send is on its way. */
export function MessageBox({ runId }: { runId: string }) {
  const [text, setText] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'sending' | 'sent' } | { kind: 'failed'; message: string }>({
    kind: 'idle',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    setState({ kind: 'sending' });
    sendAction(runId, { action: 'message', text: trimmed })
      .then(() => {
        setText('');
        setState({ kind: 'sent' });
      })
      .catch((err: unknown) => setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }));
  };
  return (
    <form className="message-box" aria-label="Message the agent" onSubmit={submit}>
      <label>
        Message the agent{' '}
        <input
          type="text"
          name="message"
          value={text}
          maxLength={MAX_CHARS}
          placeholder="read at its next turn, e.g. try `find . -size 1033c`"
          onChange={(e) => setText(e.target.value)}
        />
      </label>{' '}
      <button type="submit" disabled={state.kind === 'sending' || !text.trim()}>
        Send
      </button>{' '}
      {state.kind === 'sent' && (
        <span role="status" className="muted">
          Sent; the agent reads it at its next turn.
        </span>
      )}
      {state.kind === 'failed' && (
        <span role="alert" className="problem">
          {state.message}
        </span>
      )}
    </form>
  );
}
