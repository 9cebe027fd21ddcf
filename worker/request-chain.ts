// Keeps the run's last model request in the Durable Object's memory, so that each new one can be
// stored in D1 as a delta against it (schema/request-delta.ts): flat bytes per call. Every
// WHOLE_EVERY-th request is stored whole, so rebuilding any call reads a bounded number of rows.
// Memory only, on purpose: it used to be written to SQLite after every call, a whole request (the
// whole conversation) per call, and parsed back and serialised again each time — the object's
// largest cost with a fast model. An object that restarts stores its next request whole instead.
import type { RunEvent } from '../schema/protocol.ts';
import { encodeRequest, messageTexts } from '../schema/request-delta.ts';
import type { MessageTexts } from '../schema/request-delta.ts';

/** A whole request at least this often: a rebuild reads at most this many rows. */
export const WHOLE_EVERY = 25;

type Trace = { request: unknown; response: unknown };
type Previous = { id: string; request: unknown; texts: MessageTexts | null; deltas: number };

/** The previous request of a run, and the encoding of the next one against it. */
export class RequestChain {
  private previous: Previous | null = null;

  /** The traces of stored events with each llm_call's request encoded, in the order the calls were made. */
  encodeTraces(events: readonly RunEvent[], traces: ReadonlyMap<string, Trace>): Map<string, Trace> {
    const encoded = new Map(traces);
    for (const event of events) {
      const trace = event.type === 'llm_call' ? traces.get(event.callId) : undefined;
      if (event.type === 'llm_call' && trace)
        encoded.set(event.callId, { ...trace, request: this.encode(`${event.runId}:${event.seq}`, trace.request) });
    }
    return encoded;
  }

  /** `request`, stored as `id`, encoded against the previous one; it becomes the previous one. */
  encode(id: string, request: unknown): unknown {
    const last = this.previous;
    const texts = messageTexts(request);
    const whole = !last || last.deltas + 1 >= WHOLE_EVERY;
    const encoded = whole ? request : encodeRequest(last.request, last.id, request, last.texts, texts);
    this.previous = { id, request, texts, deltas: whole ? 0 : last.deltas + 1 };
    return encoded;
  }

  /** Forgets the previous request: the next is stored whole (a step rolled back, so its id was never stored). */
  reset(): void {
    this.previous = null;
  }
}
