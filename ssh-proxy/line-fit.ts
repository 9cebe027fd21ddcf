// Every NDJSON line the proxy sends fits the worker's limit, measured in bytes: an event, a live
// line or an end line over it has its largest strings cut; a trace loses its bodies. A checkpoint
// cannot be cut here (the worker must hold what the graph holds): the graph's own guard keeps it
// small, and one that is still too large is reported, never sent.
import type { ProxyLine } from '../schema/protocol.ts';
import { MAX_PROXY_LINE_BYTES } from '../schema/protocol.ts';
import { fitJson } from './json-fit.ts';

/** Room kept under the limit for what serialising adds after a cut (the redactor's replacements). */
const MARGIN = 64 * 1024;

/** A line's text, within the limit; or why it could not be sent (a checkpoint over it). */
export type LineText = { ok: true; text: string } | { ok: false; message: string };

/** `serialise(line)`, or the line cut to fit MAX_PROXY_LINE_BYTES and serialised again. */
export function lineText(
  line: ProxyLine,
  serialise: (line: ProxyLine) => string,
  maxBytes = MAX_PROXY_LINE_BYTES,
): LineText {
  const text = serialise(line);
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { ok: true, text };
  const note = `${bytes} bytes, over the ${maxBytes}-byte line limit`;
  if (line.type === 'checkpoint' || line.type === 'checkpoint_patch') {
    const message = `state_too_large: a ${line.type} line of ${bytes} bytes (over the ${maxBytes}-byte line limit) was not sent`;
    return { ok: false, message: `${message}; the graph's guard should have cut it, so please report this` };
  }
  if (line.type === 'trace') {
    return { ok: true, text: serialise({ ...line, request: { omitted: note }, response: { omitted: note } }) };
  }
  // Cut harder while the serialised line (redacted, perhaps longer) is still over the limit.
  for (const room of [maxBytes - MARGIN, maxBytes / 4]) {
    const { value, cuts } = fitJson(line, room);
    const cutOutput = value.type === 'event' && value.event.type === 'output' && cuts.length > 0;
    const cut = cutOutput ? { ...value, event: { ...value.event, truncated: true } } : value;
    const again = serialise(cut);
    if (Buffer.byteLength(again) <= maxBytes) return { ok: true, text: again };
  }
  if (line.type === 'event') {
    const { ts, type } = line.event;
    const error = {
      type: 'error' as const,
      code: 'event_too_large',
      message: `a ${type} event was left out: ${note}`,
      ts,
    };
    return { ok: true, text: serialise({ type: 'event', event: error }) };
  }
  if (line.type === 'end')
    return {
      ok: true,
      text: serialise({ type: 'end', outcome: line.outcome, error: `the end line was left out: ${note}` }),
    };
  return { ok: true, text: serialise({ ...line, text: `[live text left out: ${note}]` }) };
}
