// Runs the graph for one /v1/advance call and turns it into NDJSON lines: events as they happen,
// a checkpoint after every node, and one `end` line. Closing the response aborts the graph.
// In the proxy, "advance" names the graph's node that moves to the next level; the request is a call.
import { diffCheckpoint } from '../schema/checkpoint-patch.ts';
import { worldKeyOf } from '../schema/worlds.ts';
import type { Checkpoint, PendingAction, ProxyEvent, ProxyLine, ProxyRequest, Resume } from '../schema/protocol.ts';
import { Command } from './engine/command.ts';
import type { RunFrom } from './engine/compiled-graph.ts';
import type { BanditGraph } from './agent/bandit-graph.ts';
import type { BanditState } from './agent/bandit-state.ts';
import type { BanditDeps } from './agent/nodes/bandit-deps.ts';
import type { AgentModel } from './models/agent-model.ts';
import type { ModelRegistry } from './models/model-registry.ts';
import type { SessionPool } from './ssh/session-pool.ts';
import type { CallsInProgress } from './calls-in-progress.ts';
import { banditBreak } from './agent/bandit-break.ts';
import { readMessages } from './agent/read-messages.ts';
import { LiveThinking } from './live-thinking.ts';
import { lineText } from './line-fit.ts';
import { Redactor } from './redactor.ts';
import { SpendGuard } from './agent/spend-guard.ts';
import type { RunTelemetry } from './telemetry/run-telemetry.ts';
import type { GameTarget } from './targets/target.ts';

/** What every call shares: the graph, the models, the SSH pool, the limits and the runs in progress. */
export type CallDeps = {
  graph: BanditGraph;
  models: ModelRegistry;
  pool: SessionPool;
  sliceMs: number;
  callMaxMs: number;
  stepLimit: number;
  /** Runs with a call in progress: the route claims the run, this stream releases it. */
  calls: CallsInProgress;
  /** The proxy's own secrets (API key, shared secret): never in a line it sends. */
  secrets: string[];
  /** OpenTelemetry export (OTEL_EXPORTER_OTLP_ENDPOINT), or null when off. */
  telemetry: RunTelemetry | null;
  /** Live lines of a model's text go out at most once per this many milliseconds. */
  liveMs: number;
};

/** The response body for one call; `signal` is the request's (aborted when the caller hangs up). */
export function callStream(
  request: ProxyRequest,
  target: GameTarget,
  models: { model: AgentModel; knowledge: AgentModel },
  from: RunFrom<BanditState, PendingAction>,
  deps: CallDeps,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const { model, knowledge } = models;
  const abort = new AbortController();
  signal.addEventListener('abort', () => abort.abort(), { once: true });
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start: async (controller) => {
      // The run is the call's until the stream is done, however it ends: a throw before the graph
      // starts (a shell that cannot be made) must not leave the run busy for every call after.
      try {
        // Typed lines need no second check here: the Durable Object validates each as it arrives.
        // Everything but a checkpoint passes the redactor, so a typed password or a key is never stored.
        // Lines written in one turn of the event loop (a node's events and its checkpoint) leave as one
        // chunk: one write to the socket instead of one per line, which was the proxy's largest cost.
        let pending = '';
        const flush = () => {
          if (!pending || abort.signal.aborted) return;
          controller.enqueue(encoder.encode(pending));
          pending = '';
        };
        const serialise = (line: ProxyLine) =>
          line.type === 'checkpoint' || line.type === 'checkpoint_patch'
            ? JSON.stringify(line)
            : redactor.json(JSON.stringify(line));
        const write = (line: ProxyLine) => {
          if (abort.signal.aborted) return;
          // Every line fits the worker's limit in bytes; one that cannot be cut (a checkpoint) ends the call.
          const fitted = lineText(line, serialise);
          if (!pending) setImmediate(flush);
          if (fitted.ok) {
            pending += `${fitted.text}\n`;
            return;
          }
          console.error(`ssh-proxy: run ${request.runId}: ${fitted.message}`);
          pending += `${serialise({ type: 'end', outcome: 'failed', error: fitted.message })}\n`;
          flush();
          abort.abort();
        };
        const resumed = request.resume?.action === 'password' ? request.resume.value : null;
        const held = 'checkpoint' in from ? from.checkpoint.state.secrets : from.state.secrets;
        const redactor = new Redactor([...deps.secrets, ...held, resumed]);
        const tracer = deps.telemetry?.forCall(request.runId, redactor) ?? null;
        const live = new LiveThinking(write, redactor, deps.liveMs);
        const emit: BanditDeps['emit'] = (event) => {
          // A call's text is complete before anything it led to: its thinking event, its llm_call.
          live.end();
          const stamped = { ...event, ts: new Date().toISOString() } as ProxyEvent;
          tracer?.observe(stamped);
          write({ type: 'event', event: stamped });
        };
        // A person's messages join the state now; their receipts go with the call's first step, so the
        // Durable Object marks them read in the transaction that stores the checkpoint holding them.
        const inbox = readMessages(from, request.messages);
        // A takeover asked between two calls pauses this one before its next node, as POST /v1/break would.
        if (request.breakIn) deps.calls.askBreak(request.runId, request.breakIn);
        for (const receipt of inbox.read) emit({ type: 'message_read', ...receipt });
        const started = Date.now();
        const budget = new SpendGuard(request.spend);
        let lastCheckpoint: Checkpoint | null = null;
        const ctx: BanditDeps = {
          config: request.config,
          target,
          model,
          knowledge,
          // Every channel of a private-world run names its world (the final attempt and a replay included).
          shell: deps.pool.shellFor(request.runId, target, worldKeyOf(request.config)),
          emit,
          live: (level, stage, text) => live.push(level, stage, text),
          trace: (callId, req, res) => write({ type: 'trace', callId, request: req, response: res }),
          now: Date.now,
          budget,
        };
        const result = await deps.graph
          .run({
            from: inbox.from,
            ctx,
            resume: request.resume ? new Command<BanditState, Resume>({ resume: request.resume }) : undefined,
            signal: abort.signal,
            stepLimit: deps.stepLimit,
            deadline: started + deps.sliceMs,
            cutAt: started + deps.callMaxMs,
            // A takeover first; then a node that needs more of the batch's dollars ends the call, to come back.
            breakIn: (next) =>
              banditBreak(deps.calls.breakFor(request.runId), next) ??
              (budget.allowanceNeededUsd !== null ? 'yield' : null),
            onNode: (record, state) => emit({ type: 'node', level: state.level, ...record }),
            // A node's mid-node checkpoint (a command about to go out) leaves now, not at the end of the turn:
            // handed to the socket before the command is sent, it reaches the caller even if this process dies.
            flushed: async () => {
              flush();
              await new Promise((resolve) => setImmediate(resolve));
            },
            onCheckpoint: (graphCheckpoint) => {
              const checkpoint: Checkpoint = graphCheckpoint;
              // After the call's first checkpoint, a caller that asked for patches gets only what changed.
              if (request.checkpointPatches && lastCheckpoint)
                write({ type: 'checkpoint_patch', patch: diffCheckpoint(lastCheckpoint, checkpoint) });
              else write({ type: 'checkpoint', checkpoint });
              lastCheckpoint = checkpoint;
            },
          })
          .finally(() => live.end());
        if (result.outcome === 'aborted') {
          tracer?.end('aborted', null);
          return closeQuietly(controller);
        }
        // The run's last words are emitted here, after the final node's own events and checkpoint,
        // so they are the last events of the call (and are said again if a caller comes back).
        if (result.outcome === 'end') {
          deps.pool.release(request.runId);
          const status = result.state.finished === 'stopped' ? 'stopped' : 'completed';
          const reason = status === 'stopped' ? (result.state.finishNote ?? 'stopped by a person') : undefined;
          emit({
            type: 'run_complete',
            status,
            levelsSolved: result.state.levelsSolved,
            ...(reason ? { reason } : {}),
          });
          write({ type: 'end', outcome: status });
        } else if (result.outcome === 'interrupted') {
          const interrupt = result.interrupt as PendingAction;
          emit({ type: 'user_action_required', ...interrupt });
          write({ type: 'end', outcome: 'interrupted', interrupt });
        } else if (result.outcome === 'yielded' || result.outcome === 'step_limit') {
          // Either way the slice is over and the last checkpoint holds the place; the caller comes back
          // (first asking the batch's owner for the dollars the next model call needs, when it said so).
          const need = budget.allowanceNeededUsd;
          write({ type: 'end', outcome: 'yielded', ...(need !== null ? { allowanceNeededUsd: need } : {}) });
        } else {
          console.error(`ssh-proxy: run ${request.runId} failed: ${result.error}`);
          write({ type: 'end', outcome: 'failed', error: result.error ?? 'the agent failed' });
        }
        tracer?.end(result.outcome, result.outcome === 'error' ? (result.error ?? 'the agent failed') : null);
        flush();
        closeQuietly(controller);
      } finally {
        deps.calls.release(request.runId);
      }
    },
    cancel: () => abort.abort(),
  });
}

function closeQuietly(controller: ReadableStreamDefaultController<Uint8Array>): void {
  try {
    controller.close();
  } catch {
    // Already closed because the caller hung up.
  }
}
