'use client';
// Stop ends a run for good, so it takes two clicks: the first asks, the second stops. One click by
// mistake (next to Continue in the pause dialog, or in the run's header) must not end an hour's run.
import { useState } from 'react';

/** A Stop button that asks "Stop this run for good?" before calling `onStop`. */
export function StopButton({
  label,
  disabled = false,
  onStop,
}: {
  label: string;
  disabled?: boolean;
  onStop: () => void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className="danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span className="stop-confirm" role="group" aria-label="Confirm stop">
      <span>Stop this run for good? It cannot be resumed.</span>{' '}
      <button
        type="button"
        className="danger"
        disabled={disabled}
        onClick={() => {
          setAsking(false);
          onStop();
        }}
      >
        Yes, stop the run
      </button>{' '}
      <button type="button" disabled={disabled} onClick={() => setAsking(false)} autoFocus>
        Keep it
      </button>
    </span>
  );
}
