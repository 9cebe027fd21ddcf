'use client';
// The model-call inspector: one call's figures, and the request it sent and the response it got as a
// chat (system, user, assistant, tool turns) with the exact JSON one click away, fetched from
// GET /api/runs/:id/llm-calls/:callId when a model call in the timeline is opened.
import { useEffect, useMemo, useRef, useState } from 'react';
import { offeredTools, requestTurns, responseTurns } from '../../schema/llm-chat.ts';
import type { LlmCallDetail } from '../../schema/protocol.ts';
import { fetchLlmCall } from '../lib/api.ts';
import { LlmChatTurns } from './llm-chat-turns.tsx';
import { Shown } from './shown-text.tsx';

export function LlmCallInspector({ runId, callId, onClose }: { runId: string; callId: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [detail, setDetail] = useState<LlmCallDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [raw, setRaw] = useState(false);
  const chat = useMemo(
    () =>
      detail
        ? {
            request: requestTurns(detail.request),
            response: responseTurns(detail.response),
            tools: offeredTools(detail.request),
          }
        : null,
    [detail],
  );

  useEffect(() => {
    dialog.current?.showModal();
    const controller = new AbortController();
    fetchLlmCall(runId, callId, controller.signal)
      .then(setDetail)
      .catch(
        (err: unknown) => controller.signal.aborted || setProblem(err instanceof Error ? err.message : String(err)),
      );
    return () => controller.abort();
  }, [runId, callId]);

  const call = detail?.call;
  return (
    <dialog
      ref={dialog}
      className="modal inspector"
      aria-label={`Model call ${callId}`}
      onClose={onClose}
      data-testid="llm-call-inspector"
    >
      <h2>
        Model call <code>{callId}</code>
      </h2>
      {!detail && !problem && <p role="status">Loading…</p>}
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      {call && (
        <dl className="modal-facts">
          <div>
            <dt>Model</dt>
            <dd>
              <Shown text={call.model} /> ({call.stage})
            </dd>
          </div>
          <div>
            <dt>Level</dt>
            <dd>{call.level}</dd>
          </div>
          <div>
            <dt>Tokens</dt>
            <dd>
              {call.promptTokens} in, {call.completionTokens} out
            </dd>
          </div>
          <div>
            <dt>Latency</dt>
            <dd>{call.latencyMs} ms</dd>
          </div>
          <div>
            <dt>Error</dt>
            <dd>{call.errorClass ?? 'none'}</dd>
          </div>
        </dl>
      )}
      {detail && chat && (
        <>
          <div className="inspector-view">
            <button type="button" aria-pressed={raw} onClick={() => setRaw((shown) => !shown)}>
              {raw ? 'Show as chat' : 'Show raw JSON'}
            </button>
            {!raw && (!chat.request || !chat.response) && (
              <span className="muted">
                {' '}
                Parts that are not a chat (the baseline's own record, an error) are shown as JSON.
              </span>
            )}
          </div>
          <h3>Request</h3>
          {!raw && chat.request ? (
            <>
              {chat.tools.length > 0 && (
                <p className="muted" data-part="tools">
                  Tools offered: <Shown text={chat.tools.join(', ')} />
                </p>
              )}
              <LlmChatTurns turns={chat.request} part="request" />
            </>
          ) : (
            <pre className="inspector-json" data-part="request">
              <Shown text={JSON.stringify(detail.request ?? null, null, 2)} />
            </pre>
          )}
          <h3>Response</h3>
          {!raw && chat.response ? (
            <LlmChatTurns turns={chat.response} part="response" />
          ) : (
            <pre className="inspector-json" data-part="response">
              <Shown text={JSON.stringify(detail.response ?? null, null, 2)} />
            </pre>
          )}
        </>
      )}
      <div className="modal-actions">
        <button type="button" className="primary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
