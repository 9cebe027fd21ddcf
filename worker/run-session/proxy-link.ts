// The Durable Object's side of POST /v1/advance: send the checkpoint, read NDJSON lines as they
// arrive, validate each. Every way the call can go wrong becomes a result, never a throw.
import { apiErrorOf } from '../../schema/api.ts';
import { describeIssues } from '../../schema/issues.ts';
import type { BreakKind, ProxyLine, ProxyRequest } from '../../schema/protocol.ts';
import { MAX_PROXY_LINE_BYTES, proxyLineSchema } from '../../schema/protocol.ts';
import { RUN_ID_HEADER } from '../../schema/proxy-routing.ts';
import type { WorkerSettings } from '../env.ts';

export type EndLine = Extract<ProxyLine, { type: 'end' }>;

/**
 * How a call ended: the proxy's end line, a failure worth retrying (or, with `pause`, one that
 * retrying would only repeat), a refusal that is not, our own failure to store a step, or our abort.
 */
export type LinkResult =
  | { kind: 'ended'; end: EndLine }
  | { kind: 'retry'; message: string; pause?: 'state_too_large' }
  | { kind: 'refused'; status: number; code: string; message: string }
  | { kind: 'store_failed'; message: string }
  | { kind: 'aborted' }
  /** No call was made: the run's batch could not yet spare what its next model call could cost (issue 31). */
  | { kind: 'wait_for_batch'; needUsd: number };

/** Calls the proxy and hands each line to `onLine` in order; returns how the call ended. */
export async function callProxy(
  settings: WorkerSettings,
  request: ProxyRequest,
  signal: AbortSignal,
  onLine: (line: ProxyLine) => void | Promise<void>,
  onChunkRead: () => void = () => {},
): Promise<LinkResult> {
  // A proxy that accepts the call and then says nothing must not hold the run forever.
  const timeout = AbortSignal.timeout(settings.proxyTimeoutMs);
  const cut = AbortSignal.any([signal, timeout]);
  const timedOut = (): LinkResult => ({
    kind: 'retry',
    message: `the proxy call took longer than ${settings.proxyTimeoutMs} ms (PROXY_TIMEOUT_MS) and was cut`,
  });
  let response: Response;
  try {
    response = await fetch(`${settings.proxyUrl}/v1/advance`, {
      method: 'POST',
      headers: proxyHeaders(settings, request.runId),
      body: JSON.stringify(request),
      signal: cut,
    });
  } catch (err) {
    if (signal.aborted) return { kind: 'aborted' };
    if (timeout.aborted) return timedOut();
    return {
      kind: 'retry',
      message: `cannot reach the proxy at ${settings.proxyUrl}: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if (!response.ok) {
    const error = apiErrorOf(await response.json().catch(() => null));
    const message = error?.message ?? `HTTP ${response.status}`;
    // run_busy: an earlier call (cut on our side) is still winding down there; it ends soon.
    const busy = response.status === 409 && error?.code === 'run_busy';
    if (response.status >= 500 || response.status === 429 || busy)
      return { kind: 'retry', message: `the proxy answered ${response.status}: ${message}` };
    return { kind: 'refused', status: response.status, code: error?.code ?? 'refused', message };
  }
  if (!response.body) return { kind: 'retry', message: 'the proxy answered without a body' };

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buffered += chunk.value;
      // Only a line still without its newline can grow; one over the cap is refused, not buffered on.
      if (
        buffered.length > MAX_PROXY_LINE_BYTES &&
        buffered.lastIndexOf('\n') < buffered.length - MAX_PROXY_LINE_BYTES
      ) {
        await reader.cancel().catch(() => {});
        // The same checkpoint would bring the same line: an older proxy that does not cut its state.
        const message = `state_too_large: the proxy sent a line over ${MAX_PROXY_LINE_BYTES} bytes, more than the run's state may take; update the SSH proxy (it cuts such a state and says which field), then continue`;
        return { kind: 'retry', message, pause: 'state_too_large' };
      }
      // Lines are cut from where the last one ended; the rest is kept once, when the chunk is done.
      let start = 0;
      for (let newline: number; (newline = buffered.indexOf('\n', start)) >= 0; ) {
        const raw = buffered.slice(start, newline);
        start = newline + 1;
        if (!raw.trim()) continue;
        const line = parseLine(raw);
        if (!line.ok) {
          await reader.cancel().catch(() => {});
          return { kind: 'retry', message: line.message };
        }
        // A failure to store what the proxy sent is our bug, not the proxy's; say so.
        try {
          await onLine(line.line);
        } catch (err) {
          await reader.cancel().catch(() => {});
          return { kind: 'store_failed', message: err instanceof Error ? err.message : String(err) };
        }
        if (line.line.type === 'end') return { kind: 'ended', end: line.line };
      }
      buffered = buffered.slice(start);
      // Every whole line that had arrived is handled; the caller may now act on them together.
      onChunkRead();
    }
  } catch (err) {
    if (signal.aborted) return { kind: 'aborted' };
    if (timeout.aborted) return timedOut();
    return { kind: 'retry', message: `the proxy's stream broke: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (signal.aborted) return { kind: 'aborted' };
  return timeout.aborted ? timedOut() : { kind: 'retry', message: 'the proxy closed the stream before its end line' };
}

/** The secret, and the run's id for a balancer in front of many proxies: one run's calls and breaks reach one proxy. */
function proxyHeaders(settings: WorkerSettings, runId: string): Record<string, string> {
  return {
    authorization: `Bearer ${settings.proxySecret}`,
    'content-type': 'application/json',
    [RUN_ID_HEADER]: runId,
  };
}

/** One NDJSON line from the proxy, validated; never throws. */
export function parseLine(raw: string): { ok: true; line: ProxyLine } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, message: `the proxy sent a line that is not JSON: ${raw.slice(0, 80)}` };
  }
  const parsed = proxyLineSchema.safeParse(json);
  return parsed.success
    ? { ok: true, line: parsed.data }
    : { ok: false, message: `the proxy sent an invalid line: ${describeIssues(parsed.error)}` };
}

/**
 * Asks the proxy to end the run's call in progress at its next node boundary (POST /v1/break): to yield,
 * so a message is read at once, or to pause for a person's takeover. Never throws; a 404 (the call had
 * just ended) is normal, since the next call carries the message or the takeover itself.
 */
export async function breakCall(
  settings: WorkerSettings,
  runId: string,
  kind: BreakKind,
  stillWanted: () => boolean = () => false,
): Promise<void> {
  for (let tries = 0; tries < BREAK_TRIES; tries++) {
    const status = await breakOnce(settings, runId, kind);
    // 404: no call yet (the proxy has not claimed the one just sent) or none any more. Ask again while ours runs.
    if (status !== 404 || !stillWanted()) return;
    await new Promise((resolve) => setTimeout(resolve, BREAK_RETRY_MS));
  }
}

/** A break that found no call is asked again this many times in all, this far apart, while the call runs. */
const BREAK_TRIES = 5;
const BREAK_RETRY_MS = 200;

async function breakOnce(settings: WorkerSettings, runId: string, kind: BreakKind): Promise<number | null> {
  try {
    const response = await fetch(`${settings.proxyUrl}/v1/break`, {
      method: 'POST',
      headers: proxyHeaders(settings, runId),
      body: JSON.stringify({ runId, kind }),
      signal: AbortSignal.timeout(settings.proxyTimeoutMs),
    });
    if (!response.ok && response.status !== 404)
      console.error(`run ${runId}: the proxy refused a ${kind} break: HTTP ${response.status}`);
    await response.body?.cancel();
    return response.status;
  } catch (err) {
    console.error(`run ${runId}: a ${kind} break did not reach the proxy: ${err instanceof Error ? err.message : err}`);
    return null;
  }
}
