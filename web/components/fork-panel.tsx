'use client';
// A run's fork family on its page (docs/forks.md): where a fork came from (a link to the parent's step),
// the forks made of this run, and "Fork from here": at the pause, at a timeline step (#fork-N), at the step a
// #seq-N link picked, or at the last step, each opening the fork form.
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { ForkEntry } from '../../schema/fork.ts';
import type { PendingAction, RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { REPLAY_MODEL } from '../../schema/run.ts';
import { fetchForks } from '../lib/api.ts';
import { ForkForm } from './fork-form.tsx';

/** The seq of the pause the run waits at (its last user_action_required), or null when it does not wait. */
export function pauseSeqOf(events: readonly RunEvent[], pending: PendingAction | null): number | null {
  if (!pending) return null;
  for (let i = events.length - 1; i >= 0; i--) if (events[i]?.type === 'user_action_required') return events[i]!.seq;
  return null;
}

/** N from `#fork-N` (a timeline step's fork link), or null. */
export function forkSeqOfHash(hash: string): number | null {
  const match = /^#fork-(\d{1,12})$/.exec(hash);
  return match ? Number(match[1]) : null;
}

/** Where the fork form was asked to open, with a counter so asking again reopens it. */
export type ForkAsk = { seq: number; nonce: number };

export function ForkPanel({
  run,
  events,
  pending,
  pickedSeq,
  ask,
  canAct,
  linkRuns,
}: {
  run: RunSummary;
  events: readonly RunEvent[];
  pending: PendingAction | null;
  /** The step a #seq-N link points at, if any. */
  pickedSeq: number | null;
  /** The pause dialog's "Fork from here". */
  ask: ForkAsk | null;
  /** The reader may start runs (an operator or admin): the fork controls are shown. */
  canAct: boolean;
  /** Other runs can be opened (not a share link, which reaches this run only): ids are links. */
  linkRuns: boolean;
}) {
  const [forks, setForks] = useState<ForkEntry[] | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchForks(run.id, controller.signal)
      .then(setForks)
      .catch(() => setForks(null));
    return () => controller.abort();
  }, [run.id]);
  useEffect(() => {
    if (ask) setOpen(ask.seq);
  }, [ask]);
  // A timeline step's "fork" link (#fork-N) opens the form at that step, here.
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const read = () => {
      const seq = forkSeqOfHash(window.location.hash);
      if (seq === null) return;
      setOpen(seq);
      panel.current?.scrollIntoView({ block: 'nearest' });
    };
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  const pauseSeq = pauseSeqOf(events, pending);
  const lastSeq = events.at(-1)?.seq ?? null;
  const from = pauseSeq ?? pickedSeq ?? lastSeq;
  const forkable = canAct && run.config.model !== REPLAY_MODEL && from !== null;
  const runLink = (id: string, hash: string, text: ReactNode) =>
    linkRuns ? <a href={`/run?id=${encodeURIComponent(id)}${hash}`}>{text}</a> : text;
  return (
    <section className="fork-panel" aria-label="Forks" ref={panel}>
      {run.parentId && run.forkSeq && (
        <p className="fork-origin" data-parent={run.parentId}>
          Forked from{' '}
          {runLink(
            run.parentId,
            `#seq-${run.forkSeq}`,
            <>
              <code>{run.parentId}</code> at step {run.forkSeq}
            </>,
          )}
        </p>
      )}
      {forks && forks.length > 0 && (
        <div className="fork-list">
          <h2>Forks of this run</h2>
          <ul>
            {forks.map((fork) => (
              <li key={fork.id} data-fork={fork.id}>
                {runLink(fork.id, '', <code>{fork.id}</code>)}{' '}
                <span className="muted">
                  from <a href={`#seq-${fork.seq}`}>step {fork.seq}</a>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {forkable && open === null && (
        <button type="button" data-action="fork" onClick={() => setOpen(from)}>
          {pauseSeq !== null ? 'Fork from this pause' : `Fork from step ${from}`}
        </button>
      )}
      {canAct && open !== null && (
        <ForkForm key={open} runId={run.id} seq={open} atPause={open === pauseSeq} onCancel={() => setOpen(null)} />
      )}
    </section>
  );
}
