// `bandit-runner message` against the real stack (`npm start`'s own script): a person messages a baseline
// run from the CLI; the log says the CLI sent it, the agent reads it once and runs the command it names
// in backticks. Usage errors and a message to an ended run exit with their codes and say why.
import { describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { allEvents, apiJson, runCli } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const stack = stackForFile('cli-message');
const post = (path: string, body: unknown) =>
  apiJson<RunSummary>(stack().url, path, { method: 'POST', body: JSON.stringify(body) });
const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('bandit-runner message', () => {
  it('sends a message the agent reads once at its next turn, named as sent by the CLI', async () => {
    const run = await post('/api/runs', { model: 'baseline', endLevel: 5, paceMs: 300 });
    await vi.waitFor(
      async () => expect((await apiJson<RunSummary>(stack().url, `/api/runs/${run.id}`)).status).toBe('running'),
      { timeout: 30_000, interval: 50 },
    );
    // Paused first, so the baseline's next move is the message's command, whatever it had found.
    await post(`/api/runs/${run.id}/actions`, { action: 'pause' });
    const sent = await runCli(stack().url, ['message', run.id, 'try `echo cli-marker-7` first']);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/message sent to run_\w+ \(paused_for_user_action\); the agent reads it at its next/);
    await post(`/api/runs/${run.id}/actions`, { action: 'resume' });
    await vi.waitFor(
      async () =>
        expect(ofType(await allEvents(stack().url, run.id), 'command').map((e) => e.command)).toContain(
          'echo cli-marker-7',
        ),
      { timeout: 30_000, interval: 100 },
    );
    await post(`/api/runs/${run.id}/actions`, { action: 'stop' });
    const events = await allEvents(stack().url, run.id);
    const [message, ...more] = ofType(events, 'message_sent');
    expect(more).toEqual([]);
    expect(message).toMatchObject({ text: 'try `echo cli-marker-7` first', by: 'the CLI' });
    expect(ofType(events, 'message_read')).toEqual([expect.objectContaining({ messageSeq: message?.seq })]);

    const late = await runCli(stack().url, ['message', run.id, 'too late']);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/already stopped/);
  }, 120_000);

  it('refuses an empty text and a bad run id before asking the stack', async () => {
    const empty = await runCli('http://127.0.0.1:1', ['message', 'run_0mwttwzkcgphqalgd6x27up1o', '   ']);
    expect(empty).toMatchObject({ code: 2, stderr: 'bandit-runner: the message must not be empty\n' });
    const bad = await runCli('http://127.0.0.1:1', ['message', 'nope', 'hello']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"nope" is not a run id/);
  });
});
