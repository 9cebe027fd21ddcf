// A fake model for trying bandit-runner by hand without an LLM: an OpenAI-compatible reply whose
// move comes from the offline baseline policy. It reads the level, the goal, the password and the
// attempt so far back out of the chat messages the proxy sent, asks the baseline what to do, and
// answers with that tool call, its thinking streamed a few words at a time like a real model's.
import { BaselineModel } from '../../ssh-proxy/models/baseline-model.ts';
import type { PlanInput } from '../../ssh-proxy/models/agent-model.ts';
import type { Turn } from '../../ssh-proxy/agent/bandit-state.ts';
import type { ChatRequest, FakeReply, Responder } from '../../test/support/fake-openai.ts';
import { textReply, toolCall } from '../../test/support/fake-openai.ts';

type Message = ChatRequest['messages'][number] & { tool_call_id?: string };
type ToolCall = { id: string; function: { name: string; arguments: string } };

const baseline = new BaselineModel();

/** What the plan request told the model, read back from its messages. */
export function planInputFrom(messages: readonly Message[]): PlanInput {
  const brief =
    (messages.find((m) => m.role === 'user' && typeof m.content === 'string')?.content as string | undefined) ?? '';
  const level = Number(/^Level (\d+):/m.exec(brief)?.[1] ?? 0);
  const history: Turn[] = [];
  for (const [i, message] of messages.entries()) {
    const call = (message.tool_calls as ToolCall[] | undefined)?.[0];
    if (message.role !== 'assistant' || !call) continue;
    const result = String(messages[i + 1]?.content ?? '');
    const args = JSON.parse(call.function.arguments) as { command?: string; password?: string };
    const thinking = typeof message.content === 'string' ? message.content : '';
    if (call.function.name === 'run_command') {
      const exit = /^exit code (\S+)\n/.exec(result);
      history.push({
        kind: 'command',
        callId: call.id,
        thinking,
        command: args.command ?? '',
        output: exit ? result.slice(exit[0].length) : result,
        exitCode: exit && exit[1] !== 'none' ? Number(exit[1]) : null,
      });
    } else {
      history.push({ kind: 'submission', callId: call.id, thinking, password: args.password ?? '', verdict: result });
    }
  }
  const lessons = [...brief.matchAll(/^- (\(hint from a person\) )?(.+)$/gm)].map((m) => ({
    text: m[2]!,
    source: m[1] ? ('user' as const) : ('model' as const),
    level,
  }));
  return {
    level,
    goal: /^Goal: (.*)$/m.exec(brief)?.[1] ?? '',
    currentPassword: /^Your current password \(bandit\d+\) is (\S*)\.$/m.exec(brief)?.[1] ?? '',
    lessons,
    history,
    attempt: Number(/^Attempt (\d+);/m.exec(brief)?.[1] ?? 1),
    budgetLeft: Number(/; (\d+) tool calls left/m.exec(brief)?.[1] ?? 10),
    tried: /^Already refused: (.*)$/m.exec(brief)?.[1]?.split(', ') ?? [],
  };
}

export type ResponderOptions = {
  /** Milliseconds between streamed pieces of thinking. */ pieceDelayMs: number /** Who is talking, in the thinking. */;
  persona: string;
};

export function baselineResponder(options: ResponderOptions): Responder {
  return async (request): Promise<FakeReply> => {
    if (!request.tools) return textReply('- Read the goal again and try the command it names.');
    const input = planInputFrom(request.messages as Message[]);
    const isFinal = JSON.stringify(request.tool_choice ?? '').includes('final_commands');
    if (isFinal) {
      const answer = await baseline.finalAttempt({ ...input, attempts: [] }, AbortSignal.timeout(1_000));
      const commands = answer.ok ? answer.value.commands : ['ls -la'];
      return finalReply(commands, `${options.persona}: one last try with what the goal suggests.`);
    }
    const answer = await baseline.plan(input, AbortSignal.timeout(1_000));
    if (!answer.ok || answer.value.kind === 'give_up')
      return toolCall(
        'run_command',
        { command: 'ls -la' },
        `${options.persona}: nothing obvious left; looking around once more.`,
      );
    const decision = answer.value;
    const said = `${options.persona} on level ${input.level}, attempt ${input.attempt}. ${decision.thinking}`;
    const reply =
      decision.kind === 'run_command'
        ? toolCall('run_command', { command: decision.command }, said)
        : toolCall('submit_password', { password: decision.password }, said);
    return { ...reply, pieces: said.split(/(?<= )/), pieceDelayMs: options.pieceDelayMs };
  };
}

function finalReply(commands: string[], thinking: string): FakeReply {
  const reply = toolCall('run_command', {}, thinking) as {
    body: { choices: { message: { tool_calls: ToolCall[] } }[] };
  };
  reply.body.choices[0]!.message.tool_calls = [
    {
      id: 'call_final',
      type: 'function',
      function: { name: 'final_commands', arguments: JSON.stringify({ commands }) },
    } as ToolCall,
  ];
  return reply as FakeReply;
}
