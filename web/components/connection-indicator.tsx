// Whether the page is receiving the run live, announced politely to screen readers when it changes.
import type { Connection } from '../lib/use-run-socket.ts';

const LABELS: Record<Connection, string> = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…' };

export function ConnectionIndicator({ connection }: { connection: Connection }) {
  return (
    <span
      className={`connection connection-${connection}`}
      role="status"
      aria-live="polite"
      data-connection={connection}
    >
      <span className="dot" aria-hidden="true" />
      {LABELS[connection]}
    </span>
  );
}
