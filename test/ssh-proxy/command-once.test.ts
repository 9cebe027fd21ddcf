// A command runs on the target at most once, whatever happens to the proxy running it. A proxy process is
// killed (SIGKILL) while the command runs; a second proxy goes on from the last checkpoint the first one sent.
// The range's own command log shows the command once, and the run's log says it was lost, under its id.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommandLogEntry } from '../../practice/command-log.ts';
import { LOST_COMMAND_NOTE } from '../../schema/lost-command.ts';
import type { Checkpoint, ProxyEvent } from '../../schema/protocol.ts';
import { advance, advanceBody, parseReply, postAdvance } from '../support/advance-client.ts';
import { startFakeOpenAi, toolCall } from '../support/fake-openai.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { freePort } from '../support/free-port.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

const COMMAND = 'sleep 2; echo ran-once-marker';
const RUN = 'run_onceonly0000000000000';
const logged: CommandLogEntry[] = [];
let fake: FakeOpenAi;
let services: LoopbackServices;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.respond(() => toolCall('run_command', { command: COMMAND }));
  const models = { OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'sk-test', OPENAI_MODELS: 'fake-model' };
  // The second proxy runs one node a call: the execute that finds the command's mark.
  services = await startLoopbackServices({ ...models, PROXY_STEP_LIMIT: '1' }, { commandLog: (e) => logged.push(e) });
});
afterAll(async () => {
  await services.close();
  await fake.close();
});

const ofType = <T extends ProxyEvent['type']>(events: ProxyEvent[], type: T) =>
  events.filter((e): e is Extract<ProxyEvent, { type: T }> => e.type === type);

describe('a command whose proxy dies while it runs', () => {
  it('is run once on the target, and the next call reports it lost instead of running it again', async () => {
    const port = await freePort();
    const first = spawn(process.execPath, ['ssh-proxy/main.ts'], {
      env: {
        ...process.env,
        PROXY_PORT: String(port),
        PROXY_SECRET: services.proxySecret,
        PRACTICE_PORT: String(services.range.port),
        OPENAI_BASE_URL: fake.baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODELS: 'fake-model',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let printed = '';
    first.stdout?.on('data', (d: Buffer) => (printed += d.toString()));
    await vi.waitFor(() => expect(printed).toContain('listening'), { timeout: 15_000, interval: 50 });

    const config = { model: 'fake-model', endLevel: 0 };
    const response = await postAdvance(
      { proxyUrl: `http://127.0.0.1:${port}`, proxySecret: services.proxySecret },
      advanceBody(RUN, config),
    );
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    // Read until the command's mark has arrived, then wait for the range to have the command and kill the proxy.
    let text = '';
    while (!text.includes('"inFlight":{')) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`the stream ended before the command's mark: ${text}`);
      text += new TextDecoder().decode(chunk.value);
    }
    await vi.waitFor(() => expect(logged.map((e) => e.command)).toContain(COMMAND), { timeout: 5_000, interval: 10 });
    first.kill('SIGKILL');
    await once(first, 'exit');
    // What the caller holds: every whole line that came before the kill (no end line).
    const received = parseReply(`${text.slice(0, text.lastIndexOf('\n') + 1)}{"type":"end","outcome":"yielded"}\n`);
    const checkpoint = received.last as Checkpoint;
    const mark = (checkpoint.state as { inFlight: { commandId: string; command: string } | null }).inFlight;
    expect(mark).toMatchObject({ command: COMMAND });
    expect(ofType(received.events, 'command').map((c) => c.commandId)).toEqual([mark?.commandId]);
    expect(ofType(received.events, 'output')).toEqual([]);

    const reply = await advance(services, advanceBody(RUN, config, checkpoint));
    // The command is answered under its own id, as lost; nothing is sent to the target again.
    expect(ofType(reply.events, 'command')).toEqual([]);
    expect(ofType(reply.events, 'output')).toMatchObject([
      { commandId: mark?.commandId, stdout: '', stderr: LOST_COMMAND_NOTE, exitCode: null },
    ]);
    const state = reply.last?.state as { inFlight: unknown; history: { command: string; output: string }[] };
    expect(state.inFlight).toBeNull();
    expect(state.history.at(-1)).toMatchObject({
      command: COMMAND,
      output: expect.stringContaining(LOST_COMMAND_NOTE),
    });
    // Long enough for a second copy to have reached the range, had one been sent.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(logged.filter((e) => e.command === COMMAND)).toHaveLength(1);
    expect(logged[0]).toMatchObject({ user: 'bandit0', world: 'shared', address: '127.0.0.1' });
  }, 60_000);
});
