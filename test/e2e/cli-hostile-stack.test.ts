// The real stack (`npm start`'s script), a model (a fake OpenAI endpoint) whose text is hostile and
// whose commands make the practice range print OSC 52, title sets, OSC 8 links, DCS, a screen clear,
// C1 and bidi controls, NULs and binary. The stored log keeps those bytes; what reaches a person
// does not act: `watch` in tmux and `asciinema play` of the exported terminal.cast leave the clipboard
// empty and the title unchanged, and the exported text files hold no escape but colour.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { startFakeOpenAi, toolCall } from '../support/fake-openai.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { MARK, forbiddenIn } from '../support/hostile-text.ts';
import { inTmux } from '../support/hostile-tmux.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'cli/main.ts');
const work = mkdtempSync(join(tmpdir(), 'cli-hostile-stack-'));
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** What the model has the target print: every kind of escape, through the range's own printf. */
const COMMANDS = [
  String.raw`printf '\033]52;c;${b64(`${MARK}-target`)}\007\033]2;${MARK}-title\033\\\033[2J\033[H\302\233x\342\200\256(user)\000nul\n'`,
  String.raw`printf '\033]8;;https://evil.example/${MARK}\033\\click\033]8;;\033\\ \033P+q\033\\ \033]0;${MARK}-t0\007 real\rbandit0@bandit:~$ \n'`,
  String.raw`for i in 1 2 3 4 5 6 7 8 9 10; do printf '\000\001\002\377\376ab'; done; echo`,
];
/** The model's own text: an OSC 52 and a title set, an open bidi override. */
const THINKING = `checking \x1b]52;c;${b64(`${MARK}-model`)}\x07 \x1b]0;${MARK}-model\x07 \u202e(user)`;

let stack: StackProcess;
let openai: FakeOpenAi;
let runId: string;

beforeAll(async () => {
  openai = await startFakeOpenAi();
  openai.respond((request, n) =>
    request.tools
      ? toolCall('run_command', { command: COMMANDS[n % COMMANDS.length] }, THINKING)
      : toolCall('run_command', { command: 'true' }, THINKING),
  );
  stack = await startStackProcess(join(work, 'state'), undefined, {
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_API_KEY: 'sk-hostile-e2e',
    OPENAI_MODELS: 'fake-model',
  });
  const created = await fetch(`${stack.url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'fake-model', budget: 3, maxRetries: 1, endLevel: 0, finalAttempt: false }),
  });
  runId = ((await created.json()) as RunSummary).id;
  await vi.waitFor(
    async () =>
      expect(((await (await fetch(`${stack.url}/api/runs/${runId}`)).json()) as RunSummary).status).toBe(
        'paused_for_user_action',
      ),
    { timeout: 120_000, interval: 250 },
  );
});
afterAll(async () => {
  await stack?.stop();
  await openai?.close();
  rmSync(work, { recursive: true, force: true });
});

async function events(): Promise<RunEvent[]> {
  return (
    (await (await fetch(`${stack.url}/api/runs/${runId}/events?since=0&limit=1000`)).json()) as { events: RunEvent[] }
  ).events;
}

describe('a hostile target and model on the real stack', () => {
  it('keeps the raw bytes in the stored log, and they would act on a terminal written raw', async () => {
    const outputs = (await events()).flatMap((e) => (e.type === 'output' ? [e.stdout] : []));
    expect(outputs.some((o) => o.includes(`\x1b]52;c;${b64(`${MARK}-target`)}\x07`))).toBe(true);
    // Control: the stored stdout printed as is fills the clipboard buffer.
    const raw = await inTmux(
      work,
      'stack-raw',
      `${process.execPath} -e 'fetch("${stack.url}/api/runs/${runId}/events?since=0&limit=1000").then((r) => r.json()).then((j) => process.stdout.write(j.events.filter((e) => e.type === "output").map((e) => e.stdout).join("")))'`,
    );
    expect(raw.buffers).toContain(`${MARK}-target`);
  });

  it('`watch` shows the escapes as text: clipboard empty, title unchanged', async () => {
    const seen = await inTmux(
      work,
      'stack-watch',
      `${process.execPath} ${CLI} --url ${stack.url} watch ${runId} --no-answer`,
    );
    expect(seen.screen).toMatch(/EXIT=3/); // paused, nobody answered here
    expect(seen.buffers).toBe('');
    expect(seen.titleAfter).toBe(seen.titleBefore);
    expect(seen.screen).toContain(`^[]52;c;${b64(`${MARK}-target`)}^G`);
    expect(seen.screen).toContain(`^[]0;${MARK}-model^G`);
    expect(seen.screen).toContain('<U+202E>(user)');
    expect(seen.screen).toContain('<binary, ');
  });

  it('`export` then the archive: text files hold no escape, and `asciinema play` of terminal.cast obeys none', async () => {
    const out = join(work, 'export');
    const exported = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, '--url', stack.url, 'export', runId, '--out', out], { cwd: root });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('exit', (code) => resolve({ code, stdout }));
    });
    expect(exported.code).toBe(0);
    expect(exported.stdout.trim()).toBe(join(out, `${runId}.zip`));
    const files = new Map(
      Object.entries(unzipSync(new Uint8Array(readFileSync(join(out, `${runId}.zip`))))).map(([path, bytes]) => [
        path,
        new TextDecoder().decode(bytes),
      ]),
    );
    for (const name of ['run.log', 'transcript.md']) {
      expect(forbiddenIn(files.get(name)!), name).toEqual([]);
      expect(files.get(name), name).not.toContain('\x1b');
    }
    expect(files.get('transcript.md')).toContain(`^[]52;c;${b64(`${MARK}-target`)}^G`);
    // events.jsonl keeps every byte as sent.
    expect(files.get('events.jsonl')).toContain(JSON.stringify(`\x1b]52;c;${b64(`${MARK}-target`)}\x07`).slice(1, -1));
    const cast = join(work, 'terminal.cast');
    writeFileSync(cast, files.get('terminal.cast')!);
    const seen = await inTmux(work, 'stack-asciinema', `asciinema play -s 20 -i 0.05 ${cast}`);
    expect(seen.screen).toMatch(/EXIT=0/);
    expect(seen.buffers).toBe('');
    expect(seen.titleAfter).toBe(seen.titleBefore);
    expect(seen.screen).toContain(`^[]2;${MARK}-title^[\\`);
  });
});
