// Whether the page is receiving the run live, announced politely to screen readers when it changes.
// Once the run has ended there is nothing live to receive: the dot turns grey and says so.
import type { Connection } from '../lib/use-run-socket.ts';

const LABELS: Record<Connection, string> = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…' };

export function ConnectionIndicator({ connection, ended = false }: { connection: Connection; ended?: boolean }) {
  const over = ended && connection === 'live';
  return (
    <span
      className={`connection connection-${over ? 'ended' : connection}`}
      role="status"
      aria-live="polite"
      data-connection={connection}
      data-run-ended={over || undefined}
    >
      <span className="dot" aria-hidden="true" />
      {over ? 'run ended' : LABELS[connection]}
    </span>
  );
}
