// A model call's turns as a chat, one card per turn (system, user, assistant, tool), as Inspect's and
// Langfuse's viewers show them. Every word in a turn came from a model, a target or the prompt the
// agent built from them, so it goes through <Shown>.
import type { ChatTurn } from '../../schema/llm-chat.ts';
import { Shown } from './shown-text.tsx';

/** The turns of one side of a call (`part`: request or response, for tests and styles). */
export function LlmChatTurns({ turns, part }: { turns: readonly ChatTurn[]; part: 'request' | 'response' }) {
  return (
    <ol className="chat-turns" data-part={`chat-${part}`}>
      {turns.map((turn, i) => (
        // Turns never move once a call is recorded, so their place is their key.
        // biome-ignore lint/suspicious/noArrayIndexKey: a recorded call's turns are fixed
        <li key={i} className={`chat-turn chat-${turn.role}`} data-role={turn.role}>
          <div className="chat-role">
            {turn.role}
            {turn.toolCallId && (
              <span className="muted">
                {' '}
                answering <Shown text={turn.toolCallId} />
              </span>
            )}
          </div>
          {turn.reasoning && (
            <details className="chat-reasoning">
              <summary>reasoning</summary>
              <pre>
                <Shown text={turn.reasoning} />
              </pre>
            </details>
          )}
          {turn.text && (
            <pre className="chat-text">
              <Shown text={turn.text} />
            </pre>
          )}
          {turn.toolCalls.map((call, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a recorded call's tool calls are fixed
            <div key={j} className="chat-tool-call" data-tool={call.name}>
              <div className="chat-role">
                calls <Shown text={call.name} />
                {call.id && (
                  <span className="muted">
                    {' '}
                    (<Shown text={call.id} />)
                  </span>
                )}
              </div>
              <pre className="chat-text">
                <Shown text={call.arguments} />
              </pre>
            </div>
          ))}
        </li>
      ))}
    </ol>
  );
}
