'use client';
// The run page's "Share" control (operators and admins): make a read-only link to this run (optionally
// expiring), show it once to copy, list the run's links and revoke them. The link's token is in its
// fragment, so opening it sends the token to no server and no Referer.
import { useCallback, useEffect, useState } from 'react';
import type { CreatedShare, TokenInfo } from '../../schema/access.ts';
import { createShare, listShares, revokeShare } from '../lib/api.ts';
import { Shown } from './shown-text.tsx';

/** Expiry choices, in seconds (null: never). */
const EXPIRIES: readonly { label: string; seconds: number | null }[] = [
  { label: 'never', seconds: null },
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 7 * 86_400 },
];

const state = (s: TokenInfo, now: number) =>
  s.revokedAt ? 'revoked' : s.expiresAt && Date.parse(s.expiresAt) <= now ? 'expired' : 'active';

export function SharePanel({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  const [expiry, setExpiry] = useState<number | null>(86_400);
  const [label, setLabel] = useState('');
  const [made, setMade] = useState<CreatedShare | null>(null);
  const [shares, setShares] = useState<TokenInfo[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  const refresh = useCallback(() => {
    listShares(runId)
      .then((list) => setShares(list.shares))
      .catch((err: unknown) => setProblem(err instanceof Error ? err.message : String(err)));
  }, [runId]);
  useEffect(() => {
    if (open) refresh();
  }, [open, refresh]);

  const fail = (err: unknown) => setProblem(err instanceof Error ? err.message : String(err));
  const make = () => {
    setProblem(null);
    setCopied(false);
    createShare(runId, { ...(expiry ? { expiresInSeconds: expiry } : {}), ...(label.trim() ? { label } : {}) })
      .then((created) => {
        setMade(created);
        refresh();
      })
      .catch(fail);
  };
  const revoke = (id: string) => {
    setProblem(null);
    revokeShare(runId, id)
      .then(() => {
        if (made?.id === id) setMade(null);
        refresh();
      })
      .catch(fail);
  };
  const copy = () => {
    if (!made) return;
    navigator.clipboard?.writeText(made.url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)} title="Make a read-only link to this run">
        Share
      </button>
    );
  const now = Date.now();
  return (
    <section className="share-panel panel" aria-label="Share links">
      <h2>Share this run read-only</h2>
      <p className="muted">
        Whoever holds the link can watch this run live and download its redacted artifacts; nothing else.
      </p>
      <div className="run-controls">
        <label>
          Expires{' '}
          <select
            aria-label="Link expiry"
            value={expiry ?? ''}
            onChange={(e) => setExpiry(e.target.value === '' ? null : Number(e.target.value))}
          >
            {EXPIRIES.map((e) => (
              <option key={e.label} value={e.seconds ?? ''}>
                {e.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Label{' '}
          <input value={label} maxLength={100} onChange={(e) => setLabel(e.target.value)} placeholder="optional" />
        </label>
        <button type="button" className="primary" onClick={make}>
          Make link
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
      {made && (
        <p className="share-made">
          <input readOnly aria-label="Share link" value={made.url} size={60} onFocus={(e) => e.target.select()} />{' '}
          <button type="button" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </button>{' '}
          <span className="muted">shown once: the server keeps only its hash</span>
        </p>
      )}
      {problem && (
        <p role="alert" className="problem">
          <Shown text={problem} />
        </p>
      )}
      {shares.length > 0 && (
        <ul className="share-list" aria-label="Links to this run">
          {shares.map((s) => (
            <li key={s.id} data-share-state={state(s, now)}>
              <code>{s.id}</code> {s.label && <Shown text={s.label} />} · made {new Date(s.createdAt).toLocaleString()}
              {' · '}
              {s.expiresAt ? `expires ${new Date(s.expiresAt).toLocaleString()}` : 'never expires'} · {state(s, now)}{' '}
              {state(s, now) === 'active' && (
                <button type="button" onClick={() => revoke(s.id)}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
