// `bandit-runner attach` and `play` against the real stack (`npm start`'s own script) in a real tty
// (tmux): a baseline run at level 25 taken mid-run, `cat`, a second attach refused naming the holder,
// bandit26's `more` in a 6-row window, `v` into vi, `:e` the password, out again, Ctrl-] hands back with
// the tty restored, and the run resumes with level 25 solved by the person; then `play` at levels 0-1,
// and `play` from level 2, whose password is asked first.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildWorld } from '../../practice/world/world.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { allEvents, apiJson, runCli } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';
import { TmuxPane } from '../support/tmux-pane.ts';

const SEED = 'cli-attach-seed';
const passwords = buildWorld(SEED).passwords;
const stack = stackForFile('cli-attach', { PRACTICE_SEED: SEED });
const root = join(import.meta.dirname, '../..');
const cli = `${process.execPath} cli/main.ts --url`;
const WAIT = { timeout: 60_000, interval: 200 };

const post = (path: string, body: unknown) =>
  apiJson<RunSummary>(stack().url, path, { method: 'POST', body: JSON.stringify(body) });
const summary = (id: string) => apiJson<RunSummary>(stack().url, `/api/runs/${id}`);
const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

let pane: TmuxPane | null = null;
afterEach(() => {
  pane?.kill();
  pane = null;
});

/** A pane at the shell prompt, 80×24, in the repository. */
async function freshPane(name: string): Promise<TmuxPane> {
  const p = TmuxPane.start(name, { cols: 80, rows: 24 }, root, { NO_COLOR: '1' });
  pane = p;
  await p.waitFor(/^pane\$ *$/m);
  return p;
}

describe('bandit-runner attach and play on the real stack', () => {
  it('takes a running agent’s terminal at level 25: cat, more and vi, a second attach refused, Ctrl-] hands back', async () => {
    const run = await post('/api/runs', { model: 'baseline', startLevel: 25, endLevel: 26, paceMs: 1500 });
    await vi.waitFor(async () => expect((await summary(run.id)).status).toBe('paused_for_user_action'), WAIT);
    await post(`/api/runs/${run.id}/actions`, { action: 'password', value: passwords[25] });
    await vi.waitFor(async () => expect((await summary(run.id)).status).toBe('running'), WAIT);

    const p = await freshPane('attach25');
    p.type(`${cli} ${stack().url} attach ${run.id}; echo EXIT=$?`, true);
    await p.waitFor(/you hold the terminal of run_\w+; Ctrl-\] hands it back/, WAIT);
    await p.waitFor(/bandit25@practice:~\$ *$/m, WAIT);
    expect(p.ttyMode()).toEqual({ icanon: false, echo: false });
    p.type('cat /etc/bandit_pass/bandit25', true);
    await p.waitFor(new RegExp(`^${passwords[25]}$`, 'm'));

    // A second client is refused while this one holds it, and told who does.
    const second = await runCli(stack().url, ['attach', run.id, '--allow-no-tty']);
    expect(second.code).toBe(6);
    expect(second.stderr).toMatch(/bandit-runner: the terminal is held by the CLI; wait until they hand it back/);

    // bandit26's login shell is `more`: in a 6-row window it stops, and `v` opens vi on its text.
    p.resize(80, 6);
    p.type('ssh -i bandit26.sshkey bandit26@localhost', true);
    await p.waitFor(/--More--\(\d+%\)/, WAIT);
    p.press('v');
    await p.waitFor(/"\/home\/bandit26\/text\.txt" \d+L/);
    p.type(':e /etc/bandit_pass/bandit26', true);
    await p.waitFor(new RegExp(passwords[26]!));
    p.type(':q', true);
    await p.waitFor(/--More--/);
    p.press('q');
    await p.waitFor(/Connection to localhost closed\.\n\s*bandit25@practice:~\$/);
    p.resize(80, 24);

    p.press('C-]');
    await p.waitFor(/handed back; the terminal is closed\n\s*EXIT=0/, WAIT);
    expect(p.ttyMode()).toEqual({ icanon: true, echo: true });
    p.type('stty -a | grep -o "[-]*icanon"', true);
    await p.waitFor(/^icanon$/m);

    // The session proved bandit26's password: the handback gives it, level 25 is the person's, the agent goes on.
    await vi.waitFor(
      async () =>
        expect(ofType(await allEvents(stack().url, run.id), 'level_complete')).toContainEqual(
          expect.objectContaining({ level: 25, solvedBy: 'person' }),
        ),
      WAIT,
    );
    const events = await allEvents(stack().url, run.id);
    expect(ofType(events, 'takeover_started')).toEqual([expect.objectContaining({ level: 25, by: 'the CLI' })]);
    expect(ofType(events, 'takeover_ended')).toEqual([
      expect.objectContaining({ by: 'the CLI', reason: 'handback', provedLevel: 25 }),
    ]);
    // The agent went on after the handback: the run ran again after the terminal closed.
    const closedAt = events.findIndex((e) => e.type === 'takeover_ended');
    expect(
      events.slice(closedAt).some((e) => e.type === 'status_changed' && e.from === 'queued' && e.to === 'running'),
    ).toBe(true);
    const output = Buffer.concat(ofType(events, 'terminal_output').map((e) => Buffer.from(e.data, 'base64')));
    expect(output.toString()).toContain('--More--');
    expect(['running', 'completed', 'paused_for_user_action']).toContain((await summary(run.id)).status);
    expect((await summary(run.id)).levelsSolved).toBeGreaterThanOrEqual(1);
    await post(`/api/runs/${run.id}/actions`, { action: 'stop' }).catch(() => undefined);
    // `watch` tells the takeover in two lines (the bytes stay with attach, the run page and terminal.cast);
    // the four lines entered: cat, ssh, :e and :q (keys without Enter, v and q, are no line).
    const watched = await runCli(stack().url, ['watch', run.id, '--no-answer']);
    expect(watched.stdout).toMatch(/⌨ the CLI took the terminal at level 25\n/);
    expect(watched.stdout).toMatch(
      /⌨ the terminal closed: handback \(held \d+ s by the CLI, 4 lines, proved level 25\)\n/,
    );
  }, 180_000);

  it('play: level 0 solved by the person with cat, timed; Ctrl-] at level 1 leaves the run paused', async () => {
    const p = await freshPane('play');
    p.type(`${cli} ${stack().url} play --levels 0-1; echo EXIT=$?`, true);
    const started = await p.waitFor(/^run (run_\w+) — /m, WAIT);
    const runId = /^run (run_\w+) — /m.exec(started)![1]!;
    await p.waitFor(/bandit0@practice:~\$ *$/m, WAIT);
    p.type('cat readme', true);
    await p.waitFor(/level 0 solved in \d+\.\ds/, WAIT);
    await p.waitFor(/bandit1@practice:~\$ *$/m, WAIT);
    p.press('C-]');
    await p.waitFor(/EXIT=0/, WAIT);
    expect(p.ttyMode()).toEqual({ icanon: true, echo: true });

    const run = await summary(runId);
    expect(run.config.model).toBe('human');
    expect(run.status).toBe('paused_for_user_action');
    expect(run.levelsSolved).toBe(1);
    const events = await allEvents(stack().url, runId);
    expect(ofType(events, 'level_complete')).toEqual([expect.objectContaining({ level: 0, solvedBy: 'person' })]);
    expect(ofType(events, 'llm_call')).toEqual([]);
    expect(ofType(events, 'takeover_started').map((e) => [e.level, e.by])).toEqual([
      [0, 'the CLI'],
      [1, 'the CLI'],
    ]);
  }, 180_000);

  it("play above level 0 asks that level's password first (as run does), then opens its shell", async () => {
    const p = await freshPane('play2');
    p.type(`${cli} ${stack().url} play --levels 2-2; echo EXIT=$?`, true);
    await p.waitFor(/The run is waiting for you at level 2 \(password required\)/, WAIT);
    await p.waitFor(/Give bandit2's password/);
    // The third choice of the prompt.
    p.press('Down', 'Down', 'Enter');
    await p.waitFor(/Password for bandit2:/);
    p.type(passwords[2]!, true);
    await p.waitFor(/bandit2@practice:~\$ *$/m, WAIT);
    p.type('cat ./"spaces in this filename"', true);
    await p.waitFor(/level 2 solved in \d+\.\ds/, WAIT);
    await p.waitFor(/the run completed[\s\S]*EXIT=0/, WAIT);
    expect(p.screen()).not.toContain(passwords[2]!);
  }, 180_000);
});
