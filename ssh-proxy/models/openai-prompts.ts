// What an OpenAI-compatible model is told: the rules, the level, the lessons, and the attempt so
// far as a tool-calling transcript. Tool arguments coming back are validated with zod.
import type OpenAI from 'openai';
import { z } from 'zod';
import type { FinalInput, PlanInput, ReflectInput } from './agent-model.ts';
import { FINAL_MAX_COMMANDS } from './agent-model.ts';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Tool = OpenAI.Chat.Completions.ChatCompletionTool;

/** Control characters a command or password may not hold (tab, newline and CR are fine). */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/** A NUL would cut a command where a shell reads it, and none belongs in a password: such a call is refused, not run. */
const withoutControls = (schema: z.ZodString) =>
  schema.refine((text) => !CONTROL.test(text), {
    error: (issue) =>
      `must not hold control characters (found ${JSON.stringify(String(issue.input).match(CONTROL)?.[0])})`,
  });

const commandSchema = withoutControls(
  z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters'),
);

export const runCommandArgsSchema = z.strictObject({ command: commandSchema });
export const submitPasswordArgsSchema = z.strictObject({
  password: withoutControls(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters')),
});

export const TOOLS: Tool[] = [
  {
    type: 'function',
    function: {
      name: 'run_command',
      description: 'Run one shell command on the server as the current level user and read its output.',
      parameters: {
        type: 'object',
        properties: { command: { type: 'string' } },
        required: ['command'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'submit_password',
      description: "Submit the next level's password. It is checked by logging in as the next level.",
      parameters: {
        type: 'object',
        properties: { password: { type: 'string' } },
        required: ['password'],
        additionalProperties: false,
      },
    },
  },
];

export const finalCommandsArgsSchema = z.strictObject({
  commands: z
    .array(commandSchema)
    .min(1, 'must name at least one command')
    .max(FINAL_MAX_COMMANDS, `must be at most ${FINAL_MAX_COMMANDS} commands`),
});

export const FINAL_TOOL_NAME = 'final_commands';

/** The one tool of the final attempt: the command sequence to run. */
export const FINAL_TOOL: Tool = {
  type: 'function',
  function: {
    name: FINAL_TOOL_NAME,
    description: `Run these commands in order (at most ${FINAL_MAX_COMMANDS}), each a fresh non-interactive exec in the home directory; the next level's password must appear in their output.`,
    parameters: {
      type: 'object',
      properties: { commands: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: FINAL_MAX_COMMANDS } },
      required: ['commands'],
      additionalProperties: false,
    },
  },
};

const SYSTEM = `You are playing the OverTheWire Bandit wargame over SSH.
You are logged in as bandit<N> and must find the password of bandit<N+1>.
Each turn, call exactly one tool:
- run_command runs one non-interactive shell command in a fresh exec in the home directory (cd and variables do not persist; chain with && or ;).
- submit_password submits the next level's password; it is proven by logging in as the next level.
Passwords are 32 letters and digits. Keep commands short and their output small. Think briefly before each call.`;

function levelBrief(input: PlanInput): string {
  const lessons = input.lessons
    .map((l) => `- ${l.source === 'user' ? '(hint from a person) ' : ''}${l.text}`)
    .join('\n');
  return [
    `Level ${input.level}: you are bandit${input.level}; find the password of bandit${input.level + 1}.`,
    `Goal: ${input.goal}`,
    `Your current password (bandit${input.level}) is ${input.currentPassword}.`,
    lessons ? `Lessons from earlier attempts:\n${lessons}` : '',
    input.tried.length ? `Already refused: ${input.tried.join(', ')}` : '',
    `Attempt ${input.attempt}; ${input.budgetLeft} tool calls left in this attempt.`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The plan request: system, the level brief, then the attempt as tool calls and results. */
export function planMessages(input: PlanInput): Message[] {
  const messages: Message[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: levelBrief(input) },
  ];
  for (const turn of input.history) {
    const [name, args, result] =
      turn.kind === 'command'
        ? ['run_command', { command: turn.command }, `exit code ${turn.exitCode ?? 'none'}\n${turn.output}`]
        : ['submit_password', { password: turn.password }, turn.verdict];
    messages.push({
      role: 'assistant',
      content: turn.thinking || null,
      tool_calls: [{ id: turn.callId, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    });
    messages.push({ role: 'tool', tool_call_id: turn.callId, content: result });
  }
  return messages;
}

/** The reflect request: what happened in the attempt, and a request for short lessons. */
export function reflectMessages(input: ReflectInput): Message[] {
  const turns = input.history
    .map((t) =>
      t.kind === 'command' ? `$ ${t.command}\n${t.output.slice(0, 600)}` : `submitted ${t.password}: ${t.verdict}`,
    )
    .join('\n');
  return [
    {
      role: 'system',
      content: 'You review a failed attempt at a Bandit level and write what to do differently next time.',
    },
    {
      role: 'user',
      content: `${levelBrief(input)}\n\nThe attempt ended: ${input.failure}.\nWhat it did:\n${turns || '(nothing)'}\n\nWrite at most three lessons, one per line, each under 200 characters. No preamble.`,
    },
  ];
}

/** Lessons from a reflect answer: non-empty lines without list markers, at most three. */
export function parseLessons(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter((line) => line.length > 0)
    .slice(0, 3)
    .map((line) => line.slice(0, 300));
}

/** The final-attempt request: every lesson and the last commands of each attempt, one tool call back. */
export function finalMessages(input: FinalInput): Message[] {
  const attempts = input.attempts
    .map((a) => `Attempt ${a.attempt}:\n${a.commands.map((c) => `$ ${c}`).join('\n') || '(no commands)'}`)
    .join('\n');
  return [
    {
      role: 'system',
      content: `${SYSTEM}\nThis is the final attempt: every retry at this level is used up. From all lessons and the commands already tried, write the shortest command sequence that prints the next level's password, and call final_commands once.`,
    },
    { role: 'user', content: `${levelBrief(input)}\n\nThe last commands of each attempt:\n${attempts || '(none)'}` },
  ];
}
