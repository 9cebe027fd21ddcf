// Calls the proxy's POST /v1/advance and reads the NDJSON answer, validating every line.
import type { Checkpoint, ProxyEvent, ProxyLine, ProxyRequest } from '../../schema/protocol.ts';
import { applyCheckpointPatch } from '../../schema/checkpoint-patch.ts';
import { proxyLineSchema } from '../../schema/protocol.ts';
import type { RunConfigInput } from '../../schema/run.ts';
import { runConfigSchema } from '../../schema/run.ts';

export type AdvanceReply = {
  lines: ProxyLine[];
  events: ProxyEvent[];
  checkpoints: Checkpoint[];
  last: Checkpoint | null;
  end: Extract<ProxyLine, { type: 'end' }>;
};

export type AdvanceTarget = { proxyUrl: string; proxySecret: string };

/** A request body with the config's defaults filled in. */
export function advanceBody(
  runId: string,
  config: RunConfigInput,
  checkpoint: Checkpoint | null = null,
  resume?: ProxyRequest['resume'],
): ProxyRequest {
  return { runId, config: runConfigSchema.parse(config), checkpoint, ...(resume ? { resume } : {}) };
}

export function postAdvance(
  to: AdvanceTarget,
  body: unknown,
  init: { signal?: AbortSignal; secret?: string } = {},
): Promise<Response> {
  return fetch(`${to.proxyUrl}/v1/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${init.secret ?? to.proxySecret}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

/** Sends one request and reads the stream to its end line. Throws if any line breaks the protocol. */
export async function advance(to: AdvanceTarget, body: ProxyRequest): Promise<AdvanceReply> {
  const response = await postAdvance(to, body);
  if (response.status !== 200) throw new Error(`advance answered ${response.status}: ${await response.text()}`);
  return parseReply(await response.text());
}

export function parseReply(text: string): AdvanceReply {
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((raw) => proxyLineSchema.parse(JSON.parse(raw)));
  const events = lines.flatMap((l) => (l.type === 'event' ? [l.event] : []));
  // A patch applies to the checkpoint before it, as the Durable Object applies it.
  const checkpoints: Checkpoint[] = [];
  for (const l of lines) {
    if (l.type === 'checkpoint') checkpoints.push(l.checkpoint);
    if (l.type === 'checkpoint_patch') checkpoints.push(applyCheckpointPatch(checkpoints.at(-1)!, l.patch));
  }
  const end = lines.at(-1);
  if (end?.type !== 'end') throw new Error(`the stream did not finish with an end line (last: ${JSON.stringify(end)})`);
  return { lines, events, checkpoints, last: checkpoints.at(-1) ?? null, end };
}

/** Calls advance until the run stops yielding; returns every reply. */
export async function advanceUntilSettled(
  to: AdvanceTarget,
  body: ProxyRequest,
  maxCalls = 50,
): Promise<AdvanceReply[]> {
  const replies: AdvanceReply[] = [];
  let request = body;
  for (let i = 0; i < maxCalls; i++) {
    const reply = await advance(to, request);
    replies.push(reply);
    if (reply.end.outcome !== 'yielded') return replies;
    // The answer was delivered with the first call; later calls carry only the checkpoint.
    const { resume: _delivered, ...rest } = request;
    request = { ...rest, checkpoint: reply.last ?? request.checkpoint };
  }
  throw new Error(`the run was still yielding after ${maxCalls} calls`);
}

export const eventsOf = (replies: AdvanceReply[]): ProxyEvent[] => replies.flatMap((r) => r.events);
