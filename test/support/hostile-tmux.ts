// A tmux server of its own per check, with the clipboard escape on (set-clipboard on, passthrough on):
// a payload that gets through to the pane lands in a paste buffer or changes the pane title, which
// is what a person's terminal would have obeyed. Used by the hostile CLI and asciinema tests.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, vi } from 'vitest';

/** What a person at the pane met: the whole scrollback, the title before and after, the buffers. */
export type TmuxSeen = { screen: string; titleBefore: string; titleAfter: string; buffers: string };

/** Runs `command` in a fresh tmux server until it prints EXIT=<code>, and returns what it left. */
export async function inTmux(workDir: string, name: string, command: string): Promise<TmuxSeen> {
  const socket = `hostile-${name}-${process.pid}`;
  const conf = join(workDir, `${name}.tmux.conf`);
  writeFileSync(conf, 'set -g set-clipboard on\nset -g allow-passthrough on\nset -g history-limit 50000\n');
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', conf, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  tmux('new-session', '-d', '-s', 's', '-x', '200', '-y', '50', `sleep 0.3; ${command}; echo EXIT=$?; sleep 120`);
  try {
    const titleBefore = tmux('display-message', '-p', '-t', 's', '#{pane_title}').trim();
    await vi.waitFor(() => expect(tmux('capture-pane', '-p', '-t', 's')).toMatch(/EXIT=\d+/), {
      timeout: 90_000,
      interval: 250,
    });
    return {
      screen: tmux('capture-pane', '-p', '-J', '-t', 's', '-S', '-'),
      titleBefore,
      titleAfter: tmux('display-message', '-p', '-t', 's', '#{pane_title}').trim(),
      buffers: tmux('list-buffers'),
    };
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
  }
}
