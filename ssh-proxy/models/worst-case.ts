// The most a model request could add to a run's spend, known before it is sent: its prompt bounded
// by its bytes (no byte-level BPE tokenizer makes more tokens than bytes, and the JSON's keys and quotes
// cover each message's overhead) plus its `max_tokens` for the answer, at the model's price.
import type { Price } from './providers.ts';

/** A request's worst case: tokens, and dollars (null when the model has no price). */
export type WorstCase = { tokens: number; costUsd: number | null };

/** What a model request is bounded by: what it says, the tools it offers, and the answer's limit. */
export type BoundedRequest = { messages: unknown; tools?: unknown; max_tokens: number };

/** Nothing: a model that sends no request (the baseline) still counts as a call, at no tokens and no cost. */
export const NO_COST: WorstCase = { tokens: 0, costUsd: 0 };

/** The UTF-8 bytes of the request's messages and tools, as JSON: at least its prompt tokens. */
export function promptBound(request: Pick<BoundedRequest, 'messages' | 'tools'>): number {
  return Buffer.byteLength(JSON.stringify({ messages: request.messages, tools: request.tools }), 'utf8');
}

/** The request's worst case at `price` (USD per million tokens). */
export function worstCase(request: BoundedRequest, price: Price | null): WorstCase {
  const prompt = promptBound(request);
  const tokens = prompt + request.max_tokens;
  const costUsd = price ? (prompt * price.input + request.max_tokens * price.output) / 1_000_000 : null;
  return { tokens, costUsd };
}
