// The archive's text files built from a log full of hostile text: run.log and transcript.md hold no
// escape, control, bidi control or raw HTML; terminal.cast holds colour and nothing else a terminal
// acts on; replay.sh (run by real bash, with a shimmed ssh first on PATH) targets the address the run
// played and passes each hostile command to ssh as one exact word, running none of it here.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { playedAddress, replayAddress } from '../../worker/artifacts/replay-scripts.ts';
import { HOSTILE_RUN_ID, PW1, SHELL_HOSTILE, hostileEvents, hostileArchive } from '../support/hostile-run.ts';
import { HOSTILE, MARK, forbiddenIn } from '../support/hostile-text.ts';

async function build(address: string | null) {
  return hostileArchive({ includeSecrets: true, address });
}

/** transcript.md without its fenced blocks (whose content markdown shows as text), and the blocks. */
function splitFences(markdown: string): { prose: string; blocks: string[] } {
  const prose: string[] = [];
  const blocks: string[] = [];
  let open: string | null = null;
  let block: string[] = [];
  for (const line of markdown.split('\n')) {
    if (open === null && /^`{3,}$/.test(line)) {
      open = line;
      block = [];
    } else if (open !== null && line === open) {
      blocks.push(block.join('\n'));
      open = null;
    } else if (open !== null) block.push(line);
    else prose.push(line);
  }
  expect(open, 'every fence is closed').toBeNull();
  return { prose: prose.join('\n'), blocks };
}

/** A prose line without its code spans (a backtick run up to the next run of the same length), as CommonMark reads them. */
function withoutCodeSpans(line: string): string {
  let out = '';
  let rest = line;
  for (;;) {
    const open = /`+/.exec(rest);
    if (!open) return out + rest;
    const after = rest.slice(open.index + open[0].length);
    const close = new RegExp(`(?<!\`)${open[0]}(?!\`)`).exec(after);
    if (!close) return out + rest;
    out += rest.slice(0, open.index);
    rest = after.slice(close.index + open[0].length);
  }
}

describe('the archive of a hostile run', () => {
  it('run.log and transcript.md hold no escape, control, bidi control, NUL or raw binary', async () => {
    const { files } = await build('127.0.0.1:32220');
    for (const name of ['run.log', 'transcript.md']) {
      const text = files.get(name)!;
      expect(forbiddenIn(text), name).toEqual([]);
      expect(text, name).not.toContain('\x1b');
      expect(text, name).not.toContain('\r');
      expect(text, name).not.toContain('\ufffd'.repeat(8));
      // Each payload left a visible trace: the escapes are shown, not dropped.
      expect(text, name).toContain('^[]52;c;');
    }
    expect(files.get('transcript.md')).toContain('&lt;binary, ');
    expect(
      files
        .get('run.log')!
        .split('\n')
        .every((line) => line.length < 2_000),
    ).toBe(true);
  });

  it("transcript.md's prose has no HTML tag and no link; code sits in fences it cannot close", async () => {
    const { files } = await build(null);
    const { prose, blocks } = splitFences(files.get('transcript.md')!);
    const text = prose.split('\n').map(withoutCodeSpans).join('\n');
    // Outside fences and code spans (whose content markdown shows as text): no tag can start.
    expect(text.match(/<.{0,40}/g)).toBeNull();
    expect(text).toContain('&lt;script&gt;');
    // No unescaped [text](url): every [ and ] in prose is backslashed.
    expect(text.replace(/\\\\/g, '').match(/(?<!\\)[[\]].{0,40}/g)).toBeNull();
    // Every code span closes on its own line, so no blank line ends one early and lets HTML out.
    for (const line of prose.split('\n')) expect(withoutCodeSpans(line).includes('`'), line.slice(0, 80)).toBe(false);
    expect(blocks.some((b) => b.includes(`<script>alert('${MARK}')</script>`))).toBe(true);
  });

  it('terminal.cast keeps colour and shows every other escape as text', async () => {
    const { files } = await build(null);
    const [header, ...lines] = files.get('terminal.cast')!.trimEnd().split('\n');
    expect(JSON.parse(header!).title).not.toMatch(/[\x00-\x1f]/);
    let shown = 0;
    for (const line of lines) {
      const [, kind, text] = JSON.parse(line) as [number, string, string];
      // Output, or a marker at a level or a pause (its label is ours, and as clean).
      expect(['o', 'm']).toContain(kind);
      expect(forbiddenIn(text.replace(/\r\n/g, '\n'))).toEqual([]);
      if (text.includes('^[]52;')) shown += 1;
    }
    expect(shown).toBeGreaterThan(0);
    expect(files.get('terminal.cast')).toContain(`^[]0;${MARK}-title^G`);
    // The login line names where the run played.
    expect(files.get('terminal.cast')).toContain('ssh bandit0@127.0.0.1 -p 2220 ');
    expect((await build('127.0.0.1:32220')).files.get('terminal.cast')).toContain('ssh bandit0@127.0.0.1 -p 32220 ');
  });

  it('replay.sh defaults to the address the run played, says so, and gives ssh each command as one word', async () => {
    const { files } = await build('127.0.0.1:32220');
    const dir = mkdtempSync(join(tmpdir(), 'hostile-replay-'));
    for (const [path, text] of files) {
      if (!path.startsWith('replay/')) continue;
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    expect(files.get('replay/replay.sh')!.split('\n')[1]).toBe(
      '# played against 127.0.0.1:32220; override with BANDIT_HOST=... BANDIT_PORT=... bash replay.sh',
    );
    // The shim ssh writes its argv (NUL-separated, one record per call) and prints the level's password.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // Its output also holds what a hostile target prints: OSC 52, a screen clear, NUL, CR, C1 and bidi.
    const hostileOut = String.raw`\033]52;c;UFdORUQ=\007\033[2J\000\r\302\233x\342\200\256\342\201\247`;
    writeFileSync(
      join(bin, 'ssh'),
      `#!/usr/bin/env bash\n{ printf '%s\\0' "$@"; printf '\\n--end--\\0'; } >> "$SSH_LOG"\necho ${PW1}\nprintf '${hostileOut}\\n'\n`,
    );
    chmodSync(join(bin, 'ssh'), 0o755);
    const mark = join(dir, 'touched');
    const log = join(dir, 'ssh.log');
    const run = spawnSync('bash', [join(dir, 'replay/replay.sh')], {
      encoding: 'utf8',
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: dir, SSH_LOG: log, REPLAY_MARK: mark },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('replaying against 127.0.0.1:32220');
    expect(existsSync(mark), 'a hostile command ran on this machine').toBe(false);
    // What replay.sh wrote to the terminal: the target's escapes shown, none obeyed.
    expect(forbiddenIn(run.stdout)).toEqual([]);
    expect(run.stdout).toContain('^[]52;c;UFdORUQ=^G^[[2J^@^M<C1>x<bidi><bidi>');
    const calls = readFileSync(log, 'utf8')
      .split('\n--end--\0')
      .filter(Boolean)
      .map((c) => c.split('\0').slice(0, -1));
    for (const argv of calls) {
      expect(argv[argv.indexOf('-p') + 1]).toBe('32220');
      expect(argv.find((a) => a.startsWith('bandit'))).toMatch(/^bandit[01]@127\.0\.0\.1$/);
    }
    // Each hostile command reached ssh as the single word after `--`, exactly as the run had it.
    const commands = calls.map((argv) => argv.slice(argv.indexOf('--') + 1));
    for (const command of SHELL_HOSTILE) expect(commands).toContainEqual([command]);
    // An environment override still wins.
    const moved = spawnSync('bash', [join(dir, 'replay/replay.sh')], {
      encoding: 'utf8',
      env: {
        PATH: `${bin}:${process.env.PATH}`,
        HOME: dir,
        SSH_LOG: log,
        REPLAY_MARK: mark,
        BANDIT_HOST: 'localhost',
        BANDIT_PORT: '2299',
      },
    });
    expect(moved.stderr).toContain('replaying against localhost:2299');
  });

  it('falls back to the default address when the one given is not a plain host and port', () => {
    expect(replayAddress('practice', '127.0.0.1:32220')).toEqual({ host: '127.0.0.1', port: 32220 });
    expect(replayAddress('practice', '[::1]:2222')).toEqual({ host: '::1', port: 2222 });
    for (const bad of ['$(id):22', 'h"ost:22', 'host:99999', 'host', null, '`x`:1'])
      expect(replayAddress('practice', bad)).toEqual({ host: '127.0.0.1', port: 2220 });
  });

  it('reads the address a run played from its log: the last level_started that names one', () => {
    const started = (seq: number, address?: string) =>
      ({
        seq,
        ts: '2026-11-24T00:00:00.000Z',
        runId: HOSTILE_RUN_ID,
        type: 'level_started',
        level: seq,
        attempt: 1,
        retryCount: 0,
        ...(address ? { address } : {}),
      }) as const;
    expect(playedAddress([started(1, '127.0.0.1:2220'), started(2, '127.0.0.1:32220'), started(3)])).toBe(
      '127.0.0.1:32220',
    );
    expect(playedAddress([started(1)])).toBeNull();
    expect(playedAddress(hostileEvents())).toBeNull();
  });

  it('has a payload of every kind in the log it tests', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(15);
    expect(hostileEvents().filter((e) => e.runId === HOSTILE_RUN_ID).length).toBeGreaterThan(50);
  });
});
