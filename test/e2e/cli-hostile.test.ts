import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.ts';
import type { FakeRunServer } from '../support/fake-run-server.ts';
import { startFakeRunServer } from '../support/fake-run-server.ts';
import { HOSTILE_RUN_ID, hostileEvents, hostileArchive } from '../support/hostile-run.ts';
import { HOSTILE, MARK, forbiddenIn } from '../support/hostile-text.ts';
import { inTmux } from '../support/hostile-tmux.ts';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'cli/main.ts');
let fake: FakeRunServer;
let work: string;

beforeAll(async () => {
  fake = await startFakeRunServer();
  work = mkdtempSync(join(tmpdir(), 'cli-hostile-'));
});
afterAll(() => fake.close());

const cli = (args: string[]) => runCli(fake.url, args);

describe('a hostile stack at the terminal', () => {
  it('the tmux set-up would catch a payload: raw OSC 52 fills a buffer and OSC 2 sets the title', async () => {
    const seen = await inTmux(
      work,
      'control',
      `printf '\\033]52;c;%s\\007\\033]2;%s-title\\033\\\\' "$(printf ${MARK} | base64)" ${MARK}`,
    );
    expect(seen.buffers).toContain(MARK);
    expect(seen.titleAfter).toBe(`${MARK}-title`);
  });

  for (const [name, args] of [
    ['watch', `watch ${HOSTILE_RUN_ID}`],
    ['watch-verbose', `watch ${HOSTILE_RUN_ID} --verbose`],
    ['run', 'run --levels 0-3 --model baseline'],
    ['list-models', 'list models'],
    ['error', 'watch run_unknown000000000000000000'],
  ] as const) {
    it(`\`${args}\` leaves the clipboard empty and the title as it was, and shows the escapes`, async () => {
      const seen = await inTmux(work, name, `${process.execPath} ${CLI} --url ${fake.url} ${args}`);
      expect(seen.buffers).toBe('');
      expect(seen.titleAfter).toBe(seen.titleBefore);
      expect(seen.titleAfter).not.toContain(MARK);
      // Shown, not obeyed: as caret text, or (a message that is mostly NULs) as a binary preview.
      expect(seen.screen).toMatch(/\^\[\]|<binary, /);
      if (name !== 'list-models' && name !== 'error') {
        expect(seen.screen).toMatch(/EXIT=4/); // the run stopped
        expect(seen.screen).toContain(`^[]52;c;`);
        expect(seen.screen).toContain('<U+202E>(user)');
        expect(seen.screen).toContain('<binary, ');
        // The fake prompt after a CR is on a line of its own, behind a visible erase.
        expect(seen.screen).toContain('^[[Kbandit0@bandit:~$');
      }
    });
  }

  it('the CLI writes no ESC outside colour, no C1, no bidi control and no NUL to a pipe either', async () => {
    for (const args of [
      ['watch', HOSTILE_RUN_ID, '--verbose'],
      ['list', 'models'],
      ['watch', 'run_unknown000000000000000000'],
    ]) {
      const { stdout, stderr } = await cli(args);
      expect(forbiddenIn(stdout + stderr), args.join(' ')).toEqual([]);
      expect(stdout + stderr).toMatch(/\^\[|<binary, /);
    }
  });

  it('`watch --json` prints the events exactly, as JSON a terminal cannot act on', async () => {
    const { code, stdout } = await cli(['watch', HOSTILE_RUN_ID, '--json']);
    expect(code).toBe(4);
    expect(forbiddenIn(stdout)).toEqual([]);
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(hostileEvents());
  });

  it("`asciinema play` of the archive's terminal.cast leaves the clipboard empty and the title as it was", async () => {
    const { files } = await hostileArchive({ includeSecrets: false, address: null });
    const cast = join(work, 'terminal.cast');
    writeFileSync(cast, files.get('terminal.cast')!);
    const seen = await inTmux(work, 'asciinema', `asciinema play -s 50 -i 0.05 ${cast}`);
    expect(seen.screen).toMatch(/EXIT=0/);
    expect(seen.buffers).toBe('');
    expect(seen.titleAfter).toBe(seen.titleBefore);
    expect(seen.screen).toContain(`^[]0;${MARK}-title^G`);
    // The same payloads, recorded raw, would have acted: the cast is what keeps them out.
    const raw = join(work, 'raw.cast');
    writeFileSync(
      raw,
      `${JSON.stringify({ version: 2, width: 80, height: 24 })}\n${JSON.stringify([
        0.1,
        'o',
        HOSTILE.slice(0, 4)
          .map((h) => h.text)
          .join(''),
      ])}\n`,
    );
    const rawSeen = await inTmux(work, 'asciinema-raw', `asciinema play ${raw}`);
    expect(rawSeen.buffers).toContain(MARK);
  });
});

describe('export against a server that names the file', () => {
  const names = [
    '../../../escaped.zip',
    '/tmp/absolute-escape.zip',
    '..\\\\..\\\\backslash.zip',
    'nul\\u0000byte.zip',
    `${'x'.repeat(5000)}.zip`,
    '.bashrc',
    'sub/dir/file.zip',
    '',
  ];

  it('writes only <out>/<run id>.zip, whatever Content-Disposition says', async () => {
    const out = join(work, 'exports', 'out');
    for (const name of names) {
      fake.setDisposition(`attachment; filename="${name}"; filename*=UTF-8''..%2F..%2F${encodeURIComponent(name)}`);
      const { code, stdout, stderr } = await cli(['export', HOSTILE_RUN_ID, '--out', out]);
      expect(code, stderr).toBe(0);
      expect(stdout.trim()).toBe(join(out, `${HOSTILE_RUN_ID}.zip`));
    }
    // Nothing else anywhere under the export root, and nothing at the absolute path.
    const all = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? all(join(dir, e.name)) : [join(dir, e.name)],
      );
    expect(all(join(work, 'exports'))).toEqual([join(out, `${HOSTILE_RUN_ID}.zip`)]);
    expect(existsSync('/tmp/absolute-escape.zip')).toBe(false);
    expect(new Uint8Array(readFileSync(join(out, `${HOSTILE_RUN_ID}.zip`)))).toEqual(fake.zip);
  });

  it('replaces a symlink planted at its name instead of writing through it', async () => {
    const out = join(work, 'planted');
    mkdirSync(out);
    const victim = join(work, 'victim.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, join(out, `${HOSTILE_RUN_ID}.zip`));
    const { code, stderr } = await cli(['export', HOSTILE_RUN_ID, '--out', out]);
    expect(code, stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(join(out, `${HOSTILE_RUN_ID}.zip`)).isSymbolicLink()).toBe(false);
    expect(readdirSync(out)).toEqual([`${HOSTILE_RUN_ID}.zip`]);
  });
});
