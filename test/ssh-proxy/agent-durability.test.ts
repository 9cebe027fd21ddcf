// The proxy keeps no state a run depends on: a checkpoint taken mid-level finishes in a brand-new
// proxy process. And a caller that hangs up stops the graph mid-command.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Checkpoint, ProxyEvent } from '../../schema/protocol.ts';
import { advance, advanceBody, postAdvance } from '../support/advance-client.ts';
import { startFakeOpenAi, toolCall } from '../support/fake-openai.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { freePort } from '../support/free-port.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let fake: FakeOpenAi;
let services: LoopbackServices;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  services = await startLoopbackServices({
    PROXY_SLICE_MS: '1',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODELS: 'fake-model',
  });
});
afterAll(async () => {
  await services.close();
  await fake.close();
});

const ofType = <T extends ProxyEvent['type']>(events: ProxyEvent[], type: T) =>
  events.filter((e): e is Extract<ProxyEvent, { type: T }> => e.type === type);
type Saved = { level: number; history: unknown[] };

/** Starts `node ssh-proxy/main.ts` as its own process and waits until it listens. */
async function startProxyProcess(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['ssh-proxy/main.ts'], {
    env: { ...process.env, ...env, PROXY_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  child.stdout?.on('data', (d: Buffer) => (printed += d.toString()));
  await vi.waitFor(() => expect(printed).toContain('listening'), { timeout: 15_000, interval: 50 });
  return { url: `http://127.0.0.1:${port}`, child };
}

describe('durability', () => {
  it('finishes a level from a mid-level checkpoint in a fresh proxy process', async () => {
    const runId = 'run_durable000000000000000';
    const config = { endLevel: 3 };
    // Advance one short slice at a time until the agent is inside level 3 with one command run.
    let checkpoint: Checkpoint | null = null;
    for (let i = 0; i < 200; i++) {
      const reply = await advance(services, advanceBody(runId, config, checkpoint));
      checkpoint = reply.last ?? checkpoint;
      const state = checkpoint?.state as Saved | undefined;
      if (state?.level === 3 && state.history.length === 1) break;
    }
    const state = checkpoint?.state as Saved;
    expect([state.level, state.history.length]).toEqual([3, 1]);

    const fresh = await startProxyProcess({
      PROXY_SECRET: services.proxySecret,
      PRACTICE_PORT: String(services.range.port),
      PROXY_SLICE_MS: '60000',
    });
    try {
      const reply = await advance(
        { proxyUrl: fresh.url, proxySecret: services.proxySecret },
        advanceBody(runId, config, checkpoint),
      );
      expect(ofType(reply.events, 'level_complete').map((e) => e.level)).toEqual([3]);
      // It picked up where the checkpoint left off: the listing is not run again.
      expect(ofType(reply.events, 'command').map((c) => c.command)).toEqual(['cat inhere/...Hiding-From-You']);
      expect(reply.end.outcome).toBe('completed');
    } finally {
      fresh.child.kill('SIGTERM');
      await once(fresh.child, 'exit');
    }
  });

  it('stops the graph mid-command when the caller hangs up', async () => {
    fake.respond(() => toolCall('run_command', { command: 'sleep 8' }));
    const whole = await startLoopbackServices({
      PROXY_SLICE_MS: '60000',
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODELS: 'fake-model',
    });
    try {
      await hangUpMidCommand(whole);
    } finally {
      await whole.close();
    }
  });
});

async function hangUpMidCommand(services: LoopbackServices): Promise<void> {
  const abort = new AbortController();
  const response = await postAdvance(
    services,
    advanceBody('run_abort00000000000000000', { model: 'fake-model', endLevel: 0 }),
    { signal: abort.signal },
  );
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  let text = '';
  while (!text.includes('"command":"sleep 8"')) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`stream ended before the command: ${text}`);
    text += new TextDecoder().decode(chunk.value);
  }
  expect(services.proxy.activeRuns()).toBe(1);
  const hungUp = performance.now();
  abort.abort();
  await vi.waitFor(() => expect(services.proxy.activeRuns()).toBe(0), { timeout: 6_000, interval: 10 });
  const stoppedMs = performance.now() - hungUp;
  console.log(`graph stopped ${stoppedMs.toFixed(0)} ms after the caller hung up, mid \`sleep 8\``);
  // Far less than the 8 s the command would have taken: the exec was cut, not waited out.
  expect(stoppedMs).toBeLessThan(6_000);
}
