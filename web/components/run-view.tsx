'use client';
// The live run page: header with status and connection, counters, level strip, the agent's chat and
// the terminal side by side (stacked on a phone), and the user-action modal when the run waits.
import { Problem } from './form-problem.tsx';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { diagnose } from '../../schema/diagnose.ts';
import type { PendingAction } from '../../schema/protocol.ts';
import { FINAL_STATUSES, HUMAN_MODEL, runIdSchema } from '../../schema/run.ts';
import { recordedWorld, WORLD_TEXT } from '../../schema/worlds.ts';
import type { RunAction } from '../../schema/run.ts';
import { ApiFailure, fetchRun, sendAction } from '../lib/api.ts';
import { useHashSeq } from '../lib/use-hash-seq.ts';
import { clampLevel } from '../lib/level-groups.ts';
import { useRunSocket } from '../lib/use-run-socket.ts';
import { useRunTerminal } from '../lib/use-run-terminal.ts';
import { useSettled } from '../lib/use-settled.ts';
import { useAccess } from '../lib/use-access.ts';
import type { Jump } from './chat-log.tsx';
import { capsInForce } from '../lib/budget.ts';
import { BudgetPanel } from './budget-panel.tsx';
import { ChatLog } from './chat-log.tsx';
import { ConnectionIndicator } from './connection-indicator.tsx';
import { Shown } from './shown-text.tsx';
import { LevelStrip } from './level-strip.tsx';
import { RunArtifacts } from './run-artifacts.tsx';
import { MessageBox } from './message-box.tsx';
import { RunCounters } from './run-counters.tsx';
import { RunTerminal } from './run-terminal.tsx';
import { SharePanel } from './share-panel.tsx';
import { SharedNote } from './shared-note.tsx';
import { StatusBadge } from './status-badge.tsx';
import { StopButton } from './stop-button.tsx';
import { TerminalPane } from './terminal-pane.tsx';
import { TerminalReplay } from './terminal-replay.tsx';
import { TimelineView } from './timeline-view.tsx';
import { TroubleCard } from './trouble-card.tsx';
import { ForkPanel, pauseSeqOf } from './fork-panel.tsx';
import type { ForkAsk } from './fork-panel.tsx';
import { UserActionModal } from './user-action-modal.tsx';

export function RunView({ runId }: { runId: string | null }) {
  const valid = runId !== null && runIdSchema.safeParse(runId).success;
  const [problem, setProblem] = useState<string | null>(
    valid ? null : 'This address has no valid run id. Open a run from the list.',
  );

  useEffect(() => {
    if (!valid) return;
    const controller = new AbortController();
    fetchRun(runId, controller.signal).catch((err: unknown) => {
      if (controller.signal.aborted) return;
      setProblem(
        err instanceof ApiFailure && err.status === 404
          ? `There is no run ${runId}.`
          : err instanceof Error
            ? err.message
            : String(err),
      );
    });
    return () => controller.abort();
  }, [runId, valid]);

  // The socket opens beside the REST check, not after it: the replay of a long log is the page's longest
  // wait. An id that is not a run gets a 404 for both, and the problem shown closes the socket.
  const following = valid && problem === null ? runId : null;
  const terminal = useRunTerminal(following);
  const { view, connection, notice, send } = useRunSocket(following, terminal.listener);
  // The same reading of the log as GET /api/runs/:id/diagnosis, done on the events already here.
  const card = useMemo(() => diagnose(view.events), [view.events]);
  const [dismissed, setDismissed] = useState<PendingAction | null>(null);
  // A pause for the terminal opens the dialog only when asked: a modal dialog would lock the terminal.
  const [asked, setAsked] = useState<PendingAction | null>(null);
  const [actionProblem, setActionProblem] = useState<string | null>(null);
  const [jump, setJump] = useState<Jump | null>(null);
  const [forkAsk, setForkAsk] = useState<ForkAsk | null>(null);
  // A viewer or a share link watches: no control that acts is shown (the server refuses them anyway).
  const access = useAccess();
  const canAct = access.canAct;
  // The timeline is built from the whole log: rebuilt when events pause for 300 ms (at least every 3 s),
  // not at every frame of a replay or a burst, and deferred, so React renders its rows between frames.
  const timelineEvents = useDeferredValue(useSettled(view.events, 300, 3000));
  // The same element while its events stay: React skips it when the page re-renders for a live event.
  const timeline = useMemo(
    () => (runId ? <TimelineView runId={runId} events={timelineEvents} forkable={canAct} /> : null),
    [runId, timelineEvents, canAct],
  );
  const hashSeq = useHashSeq();
  const reached = hashSeq !== null && view.lastSeq >= hashSeq.seq;
  // A #seq-N link is followed once that event is here (a long log replays in several messages).
  useEffect(() => {
    if (reached && hashSeq) setJump({ seq: hashSeq.seq, nonce: hashSeq.nonce });
  }, [reached, hashSeq]);

  if (problem) {
    return (
      <main>
        {!access.share && (
          <p>
            <a href="/">← All runs</a>
          </p>
        )}
        <p role="alert">{problem}</p>
      </main>
    );
  }
  const run = view.run;
  const pending = view.pending;
  const ended = run !== null && FINAL_STATUSES.includes(run.status);
  const jumpTo = (to: { seq: number } | { level: number }) => setJump({ ...to, nonce: (jump?.nonce ?? 0) + 1 });
  // Set aside until a different question comes: the same one read again (a reconnect's snapshot, a
  // replayed event) is a new object with the same content, and must not reopen the dialog.
  const same = (a: PendingAction | null) => a !== null && JSON.stringify(pending) === JSON.stringify(a);
  const terminalPause = pending?.reason === 'takeover' || pending?.reason === 'human_turn';
  const modalOpen = pending !== null && (terminalPause ? same(asked) : !same(dismissed));
  const act = (action: RunAction) => {
    setActionProblem(null);
    sendAction(runId!, action).catch((err: unknown) =>
      setActionProblem(err instanceof Error ? err.message : String(err)),
    );
  };

  return (
    <main className="run-page" data-role={access.info?.role}>
      {access.share ? (
        <SharedNote expiresAt={access.info?.expiresAt ?? null} />
      ) : (
        <p>
          <a href="/">← All runs</a> · <a href={`/compare?a=${encodeURIComponent(runId ?? '')}`}>Compare with…</a>
        </p>
      )}
      <header className="run-header">
        <h1>
          Run <code className="run-id">{runId}</code>
        </h1>
        <div className="run-header-status">
          {run && <StatusBadge status={run.status} />}
          {run?.status === 'queued' && view.queuePosition !== null && (
            <span className="muted" data-queue-position={view.queuePosition}>
              #{view.queuePosition} in the queue
            </span>
          )}
          <ConnectionIndicator connection={connection} ended={ended} />
        </div>
        {run && (
          <p className="muted">
            {run.config.target} · levels {run.config.startLevel}–{run.config.endLevel} · model{' '}
            <Shown text={run.config.model} /> · {run.config.maxRetries}{' '}
            {run.config.maxRetries === 1 ? 'retry' : 'retries'} · budget {run.config.budget} ·{' '}
            <span data-world={recordedWorld(run.config)} title={WORLD_TEXT[recordedWorld(run.config)]}>
              {recordedWorld(run.config) === 'unrecorded' ? 'world not recorded' : `${recordedWorld(run.config)} world`}
            </span>
          </p>
        )}
        {run && canAct && (
          <div className="run-controls">
            {pending && !modalOpen && (
              <button
                type="button"
                className={terminalPause ? undefined : 'primary'}
                onClick={() => {
                  setDismissed(null);
                  setAsked(pending);
                }}
              >
                {terminalPause ? 'Other answers' : 'Answer the run'}
              </button>
            )}
            {run.status === 'running' && (
              <button type="button" onClick={() => act({ action: 'pause' })}>
                Pause
              </button>
            )}
            {!FINAL_STATUSES.includes(run.status) && (
              <StopButton label="Stop run" onStop={() => act({ action: 'stop' })} />
            )}
            {runId && <SharePanel runId={runId} />}
          </div>
        )}
        <Problem text={actionProblem} />
        {/* A refusal about the terminal is shown in its panel, not twice. */}
        {notice && notice !== terminal.refusal && (
          <p role="status" className="muted">
            Server: {notice}
          </p>
        )}
      </header>
      {run && <RunArtifacts run={run} canAct={canAct} linkRuns={!access.share} />}
      {run && (
        <ForkPanel
          run={run}
          events={view.events}
          pending={pending}
          pickedSeq={hashSeq?.seq ?? null}
          ask={forkAsk}
          canAct={canAct}
          linkRuns={!access.share}
        />
      )}
      {card && <TroubleCard card={card} />}
      <RunCounters view={view} />
      {run && <BudgetPanel run={run} view={view} />}
      {run && canAct && !ended && run.config.model !== HUMAN_MODEL && <MessageBox runId={run.id} />}
      {run && (
        <LevelStrip
          from={run.config.startLevel}
          to={run.config.endLevel}
          current={view.currentLevel}
          levels={view.record.levels}
          ended={ended}
          onJump={(level) => jumpTo({ level })}
        />
      )}
      {run && <RunTerminal run={run} pending={pending} terminal={terminal} send={send} readOnly={!canAct} />}
      <div className="run-columns">
        <ChatLog
          events={view.events}
          live={view.live}
          levels={view.record.levels}
          openLevel={
            run ? clampLevel(view.currentLevel, run.config.startLevel, run.config.endLevel) : view.currentLevel
          }
          jump={jump}
          onJump={(seq) => jumpTo({ seq })}
        />
        <TerminalPane events={view.events} />
      </div>
      {runId && <TerminalReplay runId={runId} />}
      {timeline}
      {pending && canAct && (
        <UserActionModal
          runId={runId!}
          pending={pending}
          card={card}
          caps={run ? capsInForce(run, view.events) : {}}
          open={modalOpen}
          onDismiss={() => {
            setDismissed(pending);
            setAsked(null);
          }}
          onFork={() => {
            const seq = pauseSeqOf(view.events, pending);
            setDismissed(pending);
            setAsked(null);
            if (seq !== null) setForkAsk({ seq, nonce: (forkAsk?.nonce ?? 0) + 1 });
          }}
        />
      )}
    </main>
  );
}
