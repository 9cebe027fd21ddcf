// Secrets never stored where they should not be, on the real stack: passwords a person types (wrong
// and right, at a max-retries pause and at the start), the model API key, the proxy secret and the
// API token appear in no event, no socket frame, no run summary, no D1 byte and no line of output;
// nor do the base64, hex, reversed, spaced or URL-encoded copies a shell or the model makes of them.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../schema/run.ts';
import { WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import { buildWorld } from '../../practice/world/world.ts';
import { startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { watchEvents } from '../support/run-socket.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const SEED = 'secrets-e2e-seed';
const passwords = buildWorld(SEED).passwords;
const API_TOKEN = 'api-token-SENTINEL-0123456789';
const PROXY_SECRET = 'proxy-secret-SENTINEL-0123456789';
const OPENAI_API_KEY = 'sk-key-SENTINEL-0123456789';
const WRONG = 'WrongPasswordSentinel0123456789x';
const auth = { authorization: `Bearer ${API_TOKEN}` };
const TYPED = passwords[18]!;

/** Copies of a secret as a shell prints them and as a model might write them. */
const b64 = (text: string) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');
const reversed = (text: string) => [...text].reverse().join('');
const spaced = (text: string) => [...text].join(' ');
const percent = (text: string) => hex(text).replace(/(..)/g, '%$1').toUpperCase();
/** What the level-18 model runs, one command a turn: each prints a transformed copy of the typed password. */
const COMMANDS = [
  `echo ${TYPED} | base64`,
  `echo ${TYPED} | rev`,
  `echo ${TYPED} | xxd -p`,
  `echo ${TYPED} | sed 's/./& /g'`,
];
/** The model's own words carry copies too: of the typed password and of its API key. */
const THINKING = `encoded ${b64(TYPED)} hex ${hex(TYPED).toUpperCase()} backwards ${reversed(TYPED)} spaced ${spaced(TYPED)} url ${percent(TYPED)} key ${b64(OPENAI_API_KEY)} ${reversed(OPENAI_API_KEY)}`;
/** The pieces that must appear nowhere stored or shown (the shell's copies end in a newline's bytes). */
const COPIES = {
  'base64 of the typed password': b64(`${TYPED}\n`).slice(0, 40),
  'hex of the typed password': hex(TYPED).slice(0, 56),
  'reversed typed password': reversed(TYPED),
  'spaced typed password': spaced(TYPED),
  'percent-encoded typed password': percent(TYPED),
  'base64 of the API key': b64(OPENAI_API_KEY).slice(0, 32),
  'reversed API key': reversed(OPENAI_API_KEY),
};

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-secrets-'));
let stack: StackProcess;
let openai: FakeOpenAi;
beforeAll(async () => {
  openai = await startFakeOpenAi();
  // The model runs a command each turn and learns nothing; reflect gets plain text. Once it has been
  // given the level-18 password, each command prints a transformed copy of it.
  let turn = 0;
  openai.respond((request) => {
    if (!request.tools) return textReply('look in the home directory');
    if (!JSON.stringify(request.messages).includes(TYPED))
      return toolCall('run_command', { command: 'ls -la' }, 'looking around');
    return toolCall('run_command', { command: COMMANDS[turn++ % COMMANDS.length] }, THINKING);
  });
  stack = await startStackProcess(stateDir, undefined, {
    API_TOKEN,
    PROXY_SECRET,
    OPENAI_API_KEY,
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_MODELS: 'fake-model',
    PRACTICE_SEED: SEED,
  });
});
afterAll(async () => {
  await stack?.stop();
  await openai?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const api = async (path: string, body?: unknown) => {
  const response = await fetch(
    `${stack.url}${path}`,
    body === undefined
      ? { headers: auth }
      : { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  return { status: response.status, text: await response.text() };
};
const create = async (config: Record<string, unknown>) =>
  JSON.parse((await api('/api/runs', config)).text) as RunSummary;
const summary = async (id: string) => JSON.parse((await api(`/api/runs/${id}`)).text) as RunSummary;
const waitPaused = (id: string, reason?: RegExp) =>
  vi.waitFor(
    async () => {
      const run = await summary(id);
      expect(run.status).toBe('paused_for_user_action');
      if (reason) expect(run.lastError ?? '').toMatch(reason);
      return run;
    },
    { timeout: 90_000, interval: 200 },
  );
/** Every stored event of a run, through every page. */
async function history(id: string): Promise<string> {
  const pages: string[] = [];
  for (let since: number | null = 0; since !== null; ) {
    const page = await api(`/api/runs/${id}/events?since=${since}&limit=1000`);
    pages.push(page.text);
    since = (JSON.parse(page.text) as { nextSince: number | null }).nextSince;
  }
  return pages.join('\n');
}
/** The bytes of every file under a folder. */
function bytesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path).toString('latin1'))
    .join('\n');
}

describe('secrets', () => {
  it('keeps typed passwords, keys and the proxy secret out of every event, frame, summary, D1 row and log line', async () => {
    const ws = (id: string) => `${stack.url.replace('http', 'ws')}/api/runs/${id}/ws?since=0`;
    const protocols = [WS_SUBPROTOCOL, `token.${API_TOKEN}`];

    // 1. The baseline pauses at level 13; a wrong password, then the right one, each typed by a person.
    const first = await create({ maxRetries: 1 });
    const watcher = watchEvents(
      ws(first.id),
      (e) => e.type === 'run_complete',
      () => {},
      180_000,
      protocols,
    );
    await waitPaused(first.id);
    expect((await api(`/api/runs/${first.id}/actions`, { action: 'password', value: WRONG })).status).toBe(200);
    const refused = await waitPaused(first.id, /the password you gave was refused \(login as bandit14 failed\)/);
    expect(refused.lastError).toBe('the password you gave was refused (login as bandit14 failed)');
    expect((await api(`/api/runs/${first.id}/actions`, { action: 'password', value: passwords[14] })).status).toBe(200);
    await vi.waitFor(async () => expect((await summary(first.id)).levelsSolved).toBeGreaterThanOrEqual(14), {
      timeout: 60_000,
      interval: 200,
    });
    await waitPaused(first.id);
    expect((await api(`/api/runs/${first.id}/actions`, { action: 'stop' })).status).toBe(200);
    const frames = (await watcher).frames.join('\n');

    // 2. A model run that starts at level 18 (beyond where the first run got) needs that level's
    // password; the model's requests carry it.
    // The model then makes the shell print copies of it (and writes some itself): each reaches the model,
    // none is stored.
    const second = await create({
      model: 'fake-model',
      startLevel: 18,
      endLevel: 18,
      maxRetries: 1,
      budget: 8,
      finalAttempt: false,
    });
    await waitPaused(second.id, /give bandit18's password/);
    expect((await api(`/api/runs/${second.id}/actions`, { action: 'password', value: TYPED })).status).toBe(200);
    const seenByModel = () => openai.requests.map((r) => JSON.stringify(r.body)).join('\n');
    await vi.waitFor(() => expect(seenByModel()).toContain(spaced(TYPED)), { timeout: 60_000, interval: 200 });
    expect(seenByModel()).toContain(TYPED); // the model needs it
    // The shell really printed each copy: base64, reversed, hex (xxd -p) and spaced.
    for (const copy of [b64(`${TYPED}\n`), reversed(TYPED), hex(TYPED).slice(0, 56), spaced(TYPED)])
      expect(seenByModel()).toContain(copy);
    expect((await api(`/api/runs/${second.id}/actions`, { action: 'stop' })).status).toBe(200);

    // Let the D1 outbox drain, then read everything that was stored or shown.
    await vi.waitFor(
      async () => {
        const list = JSON.parse((await api('/api/runs?limit=10')).text) as { runs: RunSummary[] };
        expect(
          list.runs
            .filter((r) => r.status === 'stopped')
            .map((r) => r.id)
            .sort(),
        ).toEqual([first.id, second.id].sort());
      },
      { timeout: 30_000, interval: 200 },
    );
    const shown = [
      frames,
      await history(first.id),
      await history(second.id),
      JSON.stringify(await summary(first.id)),
      JSON.stringify(await summary(second.id)),
      (await api('/api/runs')).text,
    ].join('\n');
    const d1 = bytesUnder(join(stateDir, 'wrangler/v3/d1'));
    const output = stack.output();

    // Each place is read for real: it holds what it should.
    expect(shown).toContain('"type":"password_found"');
    expect(shown).toContain('[redacted]');
    expect(d1).toContain(first.id);
    expect(d1).toContain('[redacted]'); // the model's recorded request, with the password it was given replaced
    expect(output).toContain('[proxy]');

    expect(shown).toContain('encoded [redacted]'); // the model's thinking, its copies replaced
    const secrets = {
      WRONG,
      typed14: passwords[14]!,
      typed18: TYPED,
      OPENAI_API_KEY,
      PROXY_SECRET,
      API_TOKEN,
      ...COPIES,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(shown.includes(secret), `${name} in events, frames or summaries`).toBe(false);
      expect(d1.includes(secret), `${name} in D1`).toBe(false);
      expect(output.includes(secret), `${name} in the stack's output`).toBe(false);
    }
  });
});
