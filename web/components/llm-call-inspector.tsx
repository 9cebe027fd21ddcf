'use client';
// The model-call inspector: one call's figures, the exact request it sent and the response it got,
// fetched from GET /api/runs/:id/llm-calls/:callId when a model call in the timeline is opened.
import { useEffect, useRef, useState } from 'react';
import type { LlmCallDetail } from '../../schema/protocol.ts';
import { fetchLlmCall } from '../lib/api.ts';
import { visibleBidi } from '../../schema/terminal-text.ts';
import { Shown } from './shown-text.tsx';

export function LlmCallInspector({ runId, callId, onClose }: { runId: string; callId: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [detail, setDetail] = useState<LlmCallDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

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
      {detail && (
        <>
          <h3>Request</h3>
          <pre className="inspector-json" data-part="request">
            {visibleBidi(JSON.stringify(detail.request, null, 2))}
          </pre>
          <h3>Response</h3>
          <pre className="inspector-json" data-part="response">
            {visibleBidi(JSON.stringify(detail.response, null, 2))}
          </pre>
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
