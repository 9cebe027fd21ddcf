// Budget pauses at reflect and inside the final attempt, through the real proxy and range with the fake
// endpoint: continue after a raise runs reflect once (one retry counted), and a final attempt a cap stopped
// between its commands runs the rest without asking the model again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banditStateSchema } from '../../ssh-proxy/agent/bandit-state.ts';
import type { FakeReply } from '../support/fake-openai.ts';
import { textReply, toolCall } from '../support/fake-openai.ts';
import type { ChatRequest } from '../support/fake-openai.ts';
import type { BudgetServices } from './budget-fixture.ts';
import {
  cappedBody,
  commandsOf,
  nodesOf,
  ofType,
  PRICED,
  playCall,
  raisedBody,
  startBudgetServices,
} from './budget-fixture.ts';

let b: BudgetServices;
let serial = 0;
beforeAll(async () => {
  b = await startBudgetServices();
});
afterAll(() => b.close());

const runId = () => `run_budgetfinal${String(++serial).padStart(11, '0')}`;
/** Two commands per attempt and one retry: the level reaches its final attempt after two plans and a reflect. */
const CONFIG = { model: PRICED, endLevel: 0, maxRetries: 1, budget: 2, finalAttempt: true } as const;
const FINAL = ['echo f1', 'echo f2', 'cat readme'];

/** Plans that wander, a lesson, and a final attempt that reads the readme last. */
function wanderThenFinal(request: ChatRequest): FakeReply {
  if (!request.tools) return textReply('- read the readme');
  if (JSON.stringify(request.tools).includes('"final_commands"')) {
    const reply = toolCall('run_command', {}, 'Last try.');
    const body = reply.body as {
      choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
    };
    const fn = body.choices[0]!.message.tool_calls[0]!.function;
    fn.name = 'final_commands';
    fn.arguments = JSON.stringify({ commands: FINAL });
    return reply;
  }
  const n = request.messages.filter((m) => m.role === 'tool').length;
  return toolCall('run_command', { command: `echo a${n}` });
}

describe('budget pauses at reflect and in the final attempt', () => {
  it('a cap reached at reflect pauses there; continue reflects once and goes on to the final attempt', async () => {
    b.fake.respond(wanderThenFinal);
    const body = cappedBody(runId(), CONFIG, { maxModelCalls: 2 });
    const { reply, sent } = await playCall(b, body);
    expect(sent.map((r) => Boolean(r.tools))).toEqual([true, true]);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'budget_exceeded',
      breach: { cap: 'maxModelCalls', spent: 2 },
    });
    expect(ofType(reply.events, 'attempt_failed')).toEqual([]);

    const raised = await playCall(b, raisedBody(body, reply.last, reply.events, { maxModelCalls: 10 }));
    expect(nodesOf(raised.reply.events).slice(0, 3)).toEqual(['pause', 'reflect', 'final_attempt']);
    expect(ofType(raised.reply.events, 'attempt_failed')).toMatchObject([{ retryCount: 1, reason: 'budget_spent' }]);
    expect(raised.reply.end.outcome).toBe('completed');
  });

  it('a cap reached between final-attempt commands pauses; continue runs the rest without a new model call', async () => {
    b.fake.respond(wanderThenFinal);
    const body = cappedBody(runId(), CONFIG, { maxCommands: 3 });
    const { reply } = await playCall(b, body);
    expect(commandsOf(reply.events)).toEqual(['echo a0', 'echo a1', 'echo f1']);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'budget_exceeded',
      breach: { cap: 'maxCommands', spent: 3, limit: 3, next: 1 },
    });
    const state = banditStateSchema.parse(reply.last?.state);
    expect(state.fault?.resumeAt).toBe('final_attempt');
    expect(state.finalRun).toMatchObject({ commands: FINAL, outputs: [expect.stringContaining('f1')] });

    const raised = await playCall(b, raisedBody(body, reply.last, reply.events, { maxCommands: 10 }));
    expect(raised.sent).toEqual([]);
    expect(commandsOf(raised.reply.events)).toEqual(['echo f2', 'cat readme']);
    expect(nodesOf(raised.reply.events).slice(0, 3)).toEqual(['pause', 'final_attempt', 'advance']);
    expect(ofType(raised.reply.events, 'level_complete')).toMatchObject([{ level: 0, solvedBy: 'final_attempt' }]);
    expect(raised.reply.end.outcome).toBe('completed');
  });
});
