// Finding 2 of issue 27 on the real stack (`npm start`: workerd, the proxy, the range): a model that
// writes 3 MB of thinking and then has the target print control bytes, NULs, OSC 52, title sets, C1
// and invalid UTF-8 for 80 commands. The worker reads every line (it refuses one over 1 MiB), so the
// run goes on: no proxy_retry, no pause, the level solved, and the raw bytes kept in the log.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { passwordShapedTokens } from '../../ssh-proxy/targets/target.ts';
import type { ChatRequest, FakeOpenAi, FakeReply } from '../support/fake-openai.ts';
import { splitText, startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const FLOODS = 80;
const binary = randomBytes(300).toString('base64');
const flood = (i: number) =>
  `printf '\\001\\002\\003\\000\\033\\007%.0s' $(seq 1 12000); echo ${binary} | base64 -d; ` +
  `printf '\\033]52;c;QUJD\\007\\033]0;pwned\\007\\033[2J\\233%.0s' $(seq 1 4000) >&2; echo ${i}`;
const thinking = 'think \x00\x1b[2J "q" `id` $(whoami) 🎉\n'.repeat(80_000);

/** 3 MB of thinking first, then FLOODS floods, then the readme and its password. */
function flooder(request: ChatRequest): FakeReply {
  if (!request.tools) return textReply('- read the readme');
  const results = request.messages.filter((m) => m.role === 'tool');
  if (results.length === 0)
    return { ...toolCall('run_command', { command: flood(0) }, thinking), pieces: splitText(thinking, 256 * 1024) };
  if (results.length < FLOODS)
    return toolCall('run_command', { command: flood(results.length) }, `flood ${results.length}`);
  const found = passwordShapedTokens(String(results.at(-1)?.content ?? ''));
  return found[0]
    ? toolCall('submit_password', { password: found[0] })
    : toolCall('run_command', { command: 'cat readme' });
}

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-hostile-state-'));
let stack: StackProcess;
let openai: FakeOpenAi;
beforeAll(async () => {
  openai = await startFakeOpenAi();
  openai.respond(flooder);
  // Short slices: many proxy calls, each opening with the whole checkpoint (the line that wedged runs).
  stack = await startStackProcess(stateDir, undefined, {
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_API_KEY: 'sk-hostile-e2e',
    OPENAI_MODELS: 'fake-model',
    PROXY_SLICE_MS: '500',
  });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await openai?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('a hostile model and target on the real stack', () => {
  it('never wedges the run: every line is read, the run solves its level, and the log keeps the raw bytes', async () => {
    const created = await fetch(`${stack.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'fake-model',
        endLevel: 0,
        budget: FLOODS + 5,
        maxRetries: 1,
        finalAttempt: false,
      }),
    });
    expect(created.status).toBe(201);
    const run = (await created.json()) as RunSummary;
    let summary = run;
    await vi.waitFor(
      async () => {
        summary = (await (await fetch(`${stack.url}/api/runs/${run.id}`)).json()) as RunSummary;
        expect(['completed', 'paused_for_user_action', 'failed']).toContain(summary.status);
      },
      { timeout: 240_000, interval: 500 },
    );
    const events: RunEvent[] = [];
    for (let since = 0; ; ) {
      const page = (await (await fetch(`${stack.url}/api/runs/${run.id}/events?since=${since}&limit=1000`)).json()) as {
        events: RunEvent[];
      };
      if (!page.events.length) break;
      events.push(...page.events);
      since = page.events.at(-1)!.seq;
    }
    const errors = events.filter((e) => e.type === 'error');
    expect(
      summary,
      `lastError: ${summary.lastError}; errors: ${JSON.stringify(errors.map((e) => (e as { message: string }).message.slice(0, 200)))}`,
    ).toMatchObject({ status: 'completed', levelsSolved: 1, lastError: null });
    expect(errors).toEqual([]);
    expect(events.filter((e) => e.type === 'user_action_required')).toEqual([]);
    const outputs = events.filter((e): e is Extract<RunEvent, { type: 'output' }> => e.type === 'output');
    expect(outputs).toHaveLength(FLOODS + 1);
    expect(outputs[0]!.stdout).toContain('\x01\x02\x03\x00\x1b\x07');
    expect(outputs[0]!.stderr).toContain('\x1b]52;c;QUJD\x07');
    const thought = events.find((e): e is Extract<RunEvent, { type: 'thinking' }> => e.type === 'thinking')!;
    expect(thought.text.startsWith('think \x00\x1b[2J')).toBe(true);
    const steps = (stack.output().match(/was sent anyway|over 1048576 bytes/g) ?? []).length;
    expect(steps).toBe(0);
    console.log(`hostile stack run: ${events.length} events, ${outputs.length} commands, ${summary.status}`);
  }, 300_000);
});
