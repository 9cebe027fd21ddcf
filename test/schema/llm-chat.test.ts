// A model call read as a chat: the turns of an OpenAI-style request and response, and null for
// bodies that are not one (the baseline's own record, an error), so the inspector shows raw JSON.
import { describe, expect, it } from 'vitest';
import { offeredTools, requestTurns, responseTurns } from '../../schema/llm-chat.ts';

describe('a model call as a chat', () => {
  it('reads system, user, assistant and tool turns, with tool calls and their arguments indented', () => {
    const request = {
      model: 'gpt-x',
      tools: [{ type: 'function', function: { name: 'run_command' } }],
      messages: [
        { role: 'developer', content: 'You play Bandit.' },
        { role: 'user', content: [{ type: 'text', text: 'Level 0.' }, { type: 'image_url' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'run_command', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'readme\n' },
      ],
    };
    expect(offeredTools(request)).toEqual(['run_command']);
    const turns = requestTurns(request);
    expect(turns).toEqual([
      { role: 'system', text: 'You play Bandit.', reasoning: null, toolCalls: [], toolCallId: null },
      { role: 'user', text: 'Level 0.\n[image_url]', reasoning: null, toolCalls: [], toolCallId: null },
      {
        role: 'assistant',
        text: '',
        reasoning: null,
        toolCalls: [{ id: 'call_1', name: 'run_command', arguments: '{\n  "command": "ls"\n}' }],
        toolCallId: null,
      },
      { role: 'tool', text: 'readme\n', reasoning: null, toolCalls: [], toolCallId: 'call_1' },
    ]);
  });

  it("reads a completion's answer, its reasoning and arguments that are not JSON as they came", () => {
    const turns = responseTurns({
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Looking around.',
            reasoning_content: 'The readme is likely.',
            tool_calls: [{ function: { name: 'run_command', arguments: 'cat readme' } }],
          },
        },
      ],
    });
    expect(turns).toEqual([
      {
        role: 'assistant',
        text: 'Looking around.',
        reasoning: 'The readme is likely.',
        toolCalls: [{ id: null, name: 'run_command', arguments: 'cat readme' }],
        toolCallId: null,
      },
    ]);
  });

  it('reads a body that is not a chat as null: the baseline record, an error, nothing', () => {
    expect(requestTurns({ model: 'baseline', level: 0, attempt: 1, turns: 3 })).toBeNull();
    expect(offeredTools({ model: 'baseline', tools: 'none' })).toEqual([]);
    expect(requestTurns({ messages: [] })).toBeNull();
    expect(responseTurns({ error: 'rate limited' })).toBeNull();
    expect(responseTurns({ kind: 'run_command', command: 'ls' })).toBeNull();
    expect(responseTurns(null)).toBeNull();
  });
});
