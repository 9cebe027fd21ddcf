'use client';
// Stop ends a run for good, so it takes two clicks: the first asks, the second stops. One click by
// mistake (next to Continue in the pause dialog, or in the run's header) must not end an hour's run.
import { useEffect, useRef, useState } from 'react';

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
  const keep = useRef<HTMLButtonElement>(null);
  // The button clicked is gone: focus goes to the safe answer, so a second Enter does not stop.
  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" className="danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <fieldset className="stop-confirm" aria-label="Confirm stop" style={{ border: 0, margin: 0, padding: 0 }}>
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
      <button ref={keep} type="button" disabled={disabled} onClick={() => setAsking(false)}>
        Keep it
      </button>
    </fieldset>
  );
}
