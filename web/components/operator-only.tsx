'use client';
// A control that acts (start a run, start a batch, raise a cap), shown only to a role that may act;
// a viewer sees one line saying why it is missing instead of a form the API would refuse.
import type { ReactNode } from 'react';
import { useAccess } from '../lib/use-access.ts';

/** `children` for an operator or admin; for a viewer, a note naming `what` it may not do. */
export function OperatorOnly({ what, children }: { what: string; children: ReactNode }) {
  const access = useAccess();
  if (!access.known) return null;
  if (access.canAct) return <>{children}</>;
  return (
    <p className="muted" data-read-only={access.info?.role}>
      Read-only access ({access.info?.role ?? 'unknown'}): {what} needs an operator token.
    </p>
  );
}
