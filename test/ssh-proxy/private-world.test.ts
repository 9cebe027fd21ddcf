// Issue 33: a run in a private world of the practice range. Through the real proxy (POST /v1/advance and the
// terminal relay) against the real range: a file the run writes in /tmp is not there for a shared-world login, a
// shared-world run or another world, and the same run's next login (from a proxy started afresh) finds it; the
// person's terminal for that run plays in the run's world. Requests that would land in the wrong world are refused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLAYER_ENV, WORLD_ENV, WORLD_KEY } from '../../practice/world/range-world.ts';
import type { ProxyEvent } from '../../schema/protocol.ts';
import { PRACTICE_PLAYER_ENV, PRACTICE_WORLD_ENV, worldKeySchema } from '../../schema/worlds.ts';
import { startProxy } from '../../ssh-proxy/server.ts';
import type { RunningProxy } from '../../ssh-proxy/server.ts';
import { readProxySettings } from '../../ssh-proxy/settings.ts';
import { advance, advanceBody, postAdvance } from '../support/advance-client.ts';
import type { AdvanceTarget } from '../support/advance-client.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';
import { RelayClient } from '../support/relay-client.ts';
import { sshExec } from '../support/ssh-client.ts';

const RUN = 'run_privateworld00000000000001';
const OTHER = 'run_privateworld00000000000002';
const SHARED_RUN = 'run_sharedworld000000000000001';
const NOTE = '/tmp/pw-mark/note';
const PLANT = `mkdir -p /tmp/pw-mark && echo planted-by-the-run > ${NOTE} && chmod 755 /tmp/pw-mark && chmod 644 ${NOTE}`;

let fake: FakeOpenAi;
let services: LoopbackServices;
let proxyEnv: Record<string, string>;
/** The command the fake model runs at its next turn. */
let command = 'true';
const relays: RelayClient[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.respond((request) =>
    request.tools ? toolCall('run_command', { command }, 'running the planned command') : textReply('- go on'),
  );
  proxyEnv = {
    PROXY_SLICE_MS: '60000',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: 'sk-private-world',
    OPENAI_MODELS: 'fake-model',
  };
  services = await startLoopbackServices(proxyEnv);
});
afterAll(async () => {
  for (const r of relays) r.socket.terminate();
  await services.close();
  await fake.close();
});

/** One call of a level-0 run of the fake model that runs `run` once, in `world`; the outputs it printed. */
async function playOnce(to: AdvanceTarget, runId: string, run: string, world: 'shared' | 'private', key?: string) {
  command = run;
  const body = advanceBody(runId, {
    model: 'fake-model',
    endLevel: 0,
    budget: 1,
    maxRetries: 1,
    finalAttempt: false,
    world,
    ...(key ? { worldKey: key } : {}),
  });
  const reply = await advance(to, body);
  return reply.events.filter((e): e is Extract<ProxyEvent, { type: 'output' }> => e.type === 'output');
}

/** `cat` of the note as bandit0 over a plain SSH login, in the shared world or the world `key` names. */
const catNote = (key?: string) =>
  sshExec(
    { port: services.range.port, username: 'bandit0', password: 'bandit0' },
    `cat ${NOTE}`,
    key ? { [WORLD_ENV]: key } : undefined,
  );

describe('a run in a private world', () => {
  it("names its world as the range reads it: the range's variable, and a run id is a key the range takes", () => {
    expect(PRACTICE_WORLD_ENV).toBe(WORLD_ENV);
    expect(PRACTICE_PLAYER_ENV).toBe(PLAYER_ENV);
    const longest = `run_${'z'.repeat(40)}`;
    expect(worldKeySchema.safeParse(longest).success).toBe(true);
    expect(WORLD_KEY.test(longest)).toBe(true);
    expect(worldKeySchema.safeParse('../shared').success).toBe(false);
  });

  it('writes in its own world: no shared login, shared-world run or other world sees it; its next login does', async () => {
    const planted = await playOnce(services, RUN, `${PLANT} && cat ${NOTE}`, 'private', RUN);
    expect(planted.map((o) => o.stdout)).toEqual(['planted-by-the-run\n']);

    // A person's plain login plays in the shared world: the file is not there.
    const shared = await catNote();
    expect(shared.stdout).toBe('');
    expect(shared.stderr).toMatch(/No such file/);
    // Nor in another run's private world, laid out from the same seed.
    expect((await catNote(OTHER)).stderr).toMatch(/No such file/);
    // Nor for a run in the shared world, through the proxy.
    const sharedRun = await playOnce(services, SHARED_RUN, `cat ${NOTE}`, 'shared');
    expect(sharedRun.map((o) => o.stdout)).toEqual(['']);
    expect(sharedRun[0]?.stderr).toMatch(/No such file/);

    // The run logs in again from a proxy started afresh (no session kept): the same world, the file still there.
    const again: RunningProxy = await startProxy(
      readProxySettings({
        ...proxyEnv,
        PROXY_SECRET: services.proxySecret,
        PROXY_PORT: '0',
        PRACTICE_PORT: String(services.range.port),
      }),
    );
    try {
      const later = await playOnce(
        { proxyUrl: `http://127.0.0.1:${again.port}`, proxySecret: services.proxySecret },
        RUN,
        `cat ${NOTE}`,
        'private',
        RUN,
      );
      expect(later.map((o) => o.stdout)).toEqual(['planted-by-the-run\n']);
    } finally {
      await again.close();
    }
  }, 30_000);

  it("opens a person's terminal for the run in the run's world, and a shared one elsewhere", async () => {
    await playOnce(services, RUN, PLANT, 'private', RUN);
    const open = async (world?: string) => {
      const relay = new RelayClient(services.proxyUrl, services.proxySecret);
      relays.push(relay);
      await relay.ready();
      relay.send({ type: 'open', runId: RUN, target: 'practice', level: 0, password: null, cols: 80, rows: 24, world });
      await relay.expect(/bandit0@practice:~\$ /);
      // The marker is computed, so the echo of the typed line cannot match it.
      relay.type(`cat ${NOTE}; echo end-of-$((1+1))\r`);
      await relay.expect(/end-of-2\r\n/);
      relay.send({ type: 'close' });
      await relay.closed;
      return relay.output;
    };
    expect(await open(RUN)).toMatch(/planted-by-the-run/);
    const elsewhere = await open();
    expect(elsewhere).toMatch(/No such file/);
    expect(elsewhere).not.toMatch(/planted-by-the-run/);
  }, 30_000);

  it('is refused where it would land in the wrong world: no key, the real server, a key that is not a run id', async () => {
    const body = advanceBody(RUN, { model: 'fake-model', endLevel: 0, world: 'private', worldKey: RUN });
    const keyless = await postAdvance(services, { ...body, config: { ...body.config, worldKey: undefined } });
    expect(keyless.status).toBe(400);
    expect(await keyless.text()).toMatch(/config\.worldKey.*needs the key/);
    const onBandit = await postAdvance(services, { ...body, config: { ...body.config, target: 'bandit' } });
    expect(onBandit.status).toBe(400);
    expect(await onBandit.text()).toMatch(/one world, shared by every player/);
    const badKey = await postAdvance(services, { ...body, config: { ...body.config, worldKey: 'shared world' } });
    expect(badKey.status).toBe(400);

    const relay = new RelayClient(services.proxyUrl, services.proxySecret);
    relays.push(relay);
    await relay.ready();
    relay.send({
      type: 'open',
      runId: RUN,
      target: 'bandit',
      level: 0,
      password: null,
      cols: 80,
      rows: 24,
      world: RUN,
    });
    expect(await relay.closed).toMatchObject({ code: 1008, reason: expect.stringMatching(/one world/) });
  });
});

describe('a run on the practice range, shared world or private', () => {
  it('is named to the range as the player its commands wait for, so it takes turns as a client of its own', async () => {
    const playing = playOnce(services, SHARED_RUN, 'sleep 1; echo slept', 'shared');
    await vi.waitFor(() => expect(services.range.commandsByAddress()[`127.0.0.1 ${SHARED_RUN}`]?.running).toBe(1), {
      timeout: 20_000,
    });
    expect((await playing).map((o) => o.stdout)).toEqual(['slept\n']);
  }, 30_000);
});
