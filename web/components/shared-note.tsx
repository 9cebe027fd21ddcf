// The note a share link's page shows instead of the way back to all runs: what this view is, and
// until when (a share link opens this run alone; every other page would be refused).

/** "Shared read-only view", with the link's expiry when it has one. */
export function SharedNote({ expiresAt }: { expiresAt: string | null }) {
  return (
    <p className="shared-note muted" role="note">
      Shared read-only view: you can watch this run and download its redacted artifacts
      {expiresAt ? `, until ${new Date(expiresAt).toLocaleString()}` : ''}.
    </p>
  );
}
