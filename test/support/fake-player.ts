// A fake model that plays the practice range's first levels through the OpenAI protocol: it reads
// the readme, then submits the first password-shaped token the last command printed. Enough for
// batches, the queue and the board to have real solves; `think` sets the text it streams first.
import type { ChatRequest, FakeReply, Responder } from './fake-openai.ts';
import { splitText, textReply, toolCall } from './fake-openai.ts';

export type PlayerOptions = {
  /** Thinking text for each plan reply (streamed in pieces when the request streams). */
  think?: (request: ChatRequest, n: number) => string;
  /** Milliseconds between streamed pieces. */
  pieceDelayMs?: number;
  /** Milliseconds before each reply starts. */
  delayMs?: number;
};

export function player(options: PlayerOptions = {}): Responder {
  return (request, n) => {
    if (!request.tools) return textReply('- read the readme first');
    const last = request.messages.at(-1);
    const text = last?.role === 'tool' && typeof last.content === 'string' ? last.content : '';
    const token = /\b[A-Za-z0-9]{32}\b/.exec(text)?.[0];
    const thinking =
      options.think?.(request, n) ?? (token ? 'That looks like the password.' : 'The readme should hold the password.');
    const reply: FakeReply = token
      ? toolCall('submit_password', { password: token }, thinking)
      : toolCall('run_command', { command: 'cat readme' }, thinking);
    return {
      ...reply,
      pieces: splitText(thinking, 6),
      ...(options.pieceDelayMs ? { pieceDelayMs: options.pieceDelayMs } : {}),
      ...(options.delayMs ? { delayMs: options.delayMs } : {}),
    };
  };
}
