// The proxy's side of the shared terminal on the real stack (`npm start`'s own script): a takeover
// breaks into a paced baseline run mid-call (reason takeover), the person types through the
// worker ⇄ proxy relay, and the handback lets the agent run the command it had planned, once; a
// "human" run is played in the terminal: `cat` of the next password proves each level (solved by the
// person) and the terminal reopens at the next level for the same socket.
import { describe, expect, it } from 'vitest';
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { eventsOf, serverMessageSchema, socketProtocols } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { allEvents, apiJson } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const stack = stackForFile('terminal-relay');

/** A run socket that keeps every message and event, and waits for conditions on them. */
class RunSocket {
  readonly ws: WebSocket;
  readonly messages: ServerMessage[] = [];
  readonly events: RunEvent[] = [];
  private wake: (() => void)[] = [];

  constructor(url: string, runId: string) {
    this.ws = new WebSocket(`${url.replace('http', 'ws')}/api/runs/${runId}/ws?since=0`, socketProtocols(null));
    this.ws.onmessage = (m) => {
      const message = serverMessageSchema.parse(JSON.parse(String(m.data)));
      this.messages.push(message);
      this.events.push(...eventsOf(message));
      for (const w of this.wake.splice(0)) w();
    };
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The terminal's output so far, decoded. */
  screen(): string {
    return this.events
      .flatMap((e) => (e.type === 'terminal_output' ? [Buffer.from(e.data, 'base64').toString('utf8')] : []))
      .join('');
  }

  async until(what: string, test: () => boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (Date.now() > deadline)
        throw new Error(`waited for ${what}; last events: ${JSON.stringify(this.events.slice(-5).map((e) => e.type))}`);
      await new Promise<void>((resolve) => {
        this.wake.push(resolve);
        setTimeout(resolve, 250);
      });
    }
  }

  of<T extends RunEvent['type']>(type: T): Extract<RunEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
  }
}

const create = (body: unknown) =>
  apiJson<RunSummary>(stack().url, '/api/runs', { method: 'POST', body: JSON.stringify(body) });

describe('the terminal relay on the real stack', () => {
  it('a takeover mid-call pauses after the node, relays the terminal, and the handback runs the planned command once', async () => {
    const run = await create({ model: 'baseline', endLevel: 2, paceMs: 500 });
    const socket = new RunSocket(stack().url, run.id);
    await socket.until('a first command', () => socket.of('command').length > 0);
    socket.send({ type: 'user_action', action: 'takeover', cols: 100, rows: 30 });
    await socket.until('takeover_started', () => socket.of('takeover_started').length > 0);
    expect(socket.of('user_action_required').at(-1)).toMatchObject({ reason: 'takeover' });
    const before = socket.of('command').map((e) => e.command);

    socket.send({ type: 'terminal_input', data: 'echo relay-marker-$((6*7))\r' });
    await socket.until('the echo', () => /relay-marker-42/.test(socket.screen()));
    // While a person holds the terminal the agent runs nothing.
    expect(socket.of('command').map((e) => e.command)).toEqual(before);

    socket.send({ type: 'user_action', action: 'handback' });
    await socket.until('the run to end', () => socket.of('run_complete').length > 0, 120_000);
    expect(socket.of('takeover_ended')).toMatchObject([{ reason: 'handback' }]);
    expect(socket.of('run_complete')[0]).toMatchObject({ status: 'completed' });
    // The pending node ran after the handback: the agent's commands are those of a run without the
    // takeover (the baseline is deterministic), none repeated, none lost.
    const straight = await create({ model: 'baseline', endLevel: 2 });
    const plain = new RunSocket(stack().url, straight.id);
    await plain.until('the plain run to end', () => plain.of('run_complete').length > 0, 120_000);
    expect(socket.of('command').map((e) => e.command)).toEqual(plain.of('command').map((e) => e.command));
    socket.ws.close();
    plain.ws.close();
  }, 240_000);

  it('a human run is played in the terminal: each proved level completes as solved by the person', async () => {
    const run = await create({ model: 'human', endLevel: 1 });
    const socket = new RunSocket(stack().url, run.id);
    await socket.until('human_turn at level 0', () =>
      socket.of('user_action_required').some((e) => e.reason === 'human_turn' && e.level === 0),
    );
    socket.send({ type: 'user_action', action: 'takeover' });
    await socket.until('the prompt', () => /bandit0@practice:~\$ /.test(socket.screen()));
    socket.send({ type: 'terminal_input', data: 'cat readme\r' });
    await socket.until('level 0 complete', () => socket.of('level_complete').length > 0);
    expect(socket.of('level_complete')[0]).toMatchObject({ level: 0, solvedBy: 'person' });
    // The terminal reopens at level 1 for the same socket.
    await socket.until('the level 1 prompt', () => /bandit1@practice:~\$ /.test(socket.screen()));
    socket.send({ type: 'terminal_input', data: 'cat ./-\r' });
    await socket.until('the run to end', () => socket.of('run_complete').length > 0);
    expect(socket.of('level_complete').map((e) => [e.level, e.solvedBy])).toEqual([
      [0, 'person'],
      [1, 'person'],
    ]);
    expect(socket.of('run_complete')[0]).toMatchObject({ status: 'completed', levelsSolved: 2 });
    const events = await allEvents(stack().url, run.id);
    expect(events.filter((e) => e.type === 'llm_call')).toEqual([]);
    expect(events.filter((e) => e.type === 'takeover_ended').map((e) => (e as { reason: string }).reason)).toEqual(
      expect.arrayContaining(['solved']),
    );
    socket.ws.close();
  }, 240_000);
});
