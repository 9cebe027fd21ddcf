// terminal.cast: the run's SSH session as an asciicast v2 recording (the format `asciinema play` and
// asciinema-player read): a header line, then [seconds, "o", text] lines. The agent runs each command
// as its own exec, so the recording shows them the way a person at a prompt would have seen them:
// the login of each level, then prompt, command and output, at the times the run recorded. A marker
// ([seconds, "m", label]) at each level start and each pause lets the player's seek bar jump between them.
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunConfig } from '../../schema/run.ts';
import { plainText, terminalText } from '../../schema/terminal-text.ts';
import { replayAddress } from './replay-scripts.ts';
import { ScreenDecoder } from '../../schema/screen-bytes.ts';

const WIDTH = 120;
const HEIGHT = 36;
/** Pauses longer than this (a person thinking, a slow model) play as this long. */
const IDLE_TIME_LIMIT_S = 2;

/**
 * Terminal text: what the run recorded made safe (colour kept, every other escape shown, not obeyed;
 * see schema/terminal-text.ts), then newlines as CR LF, as a terminal in raw mode expects. The
 * recording's own colours are added around the safe text, never inside what a target wrote.
 */
const crlf = (text: string): string => terminalText(text).replace(/\n/g, '\r\n');
/** A field inside the recording's own coloured line: no colour of its own, so it cannot reset ours. */
const field = (text: string): string => plainText(text);

/** `address`: where the run played (`host:port`, as the manifest gives it); null shows the target's default. */
export function terminalCast(
  runId: string,
  config: RunConfig,
  events: readonly RunEvent[],
  address: string | null,
): string {
  const { host, port } = replayAddress(config.target, address);
  const start = events[0] ? Date.parse(events[0].ts) : 0;
  const header = {
    version: 2,
    width: WIDTH,
    height: HEIGHT,
    timestamp: Math.floor(start / 1000),
    idle_time_limit: IDLE_TIME_LIMIT_S,
    title: plainText(`bandit-runner ${runId}: ${config.model} on ${config.target}`).replace(/\n/g, ' '),
    env: { TERM: 'xterm-256color', SHELL: '/bin/bash' },
  };
  const lines = [JSON.stringify(header)];
  let last = 0;
  const line = (ts: string, code: 'o' | 'm' | 'r', text: string) => {
    // Times never go backwards, even if two events share a millisecond.
    last = Math.max(last, (Date.parse(ts) - start) / 1000);
    lines.push(JSON.stringify([Number(last.toFixed(3)), code, text]));
  };
  const out = (ts: string, text: string) => line(ts, 'o', text);
  /** A marker's label is the recording's own words; the player shows it as plain text. */
  const mark = (ts: string, label: string) => line(ts, 'm', label);
  let level = config.startLevel;
  // A person's terminal (issue 30) is recorded as its bytes, so vi and more play back as they drew.
  let screen = new ScreenDecoder();
  const prompt = () => `\x1b[1;32mbandit${level}@bandit\x1b[0m:\x1b[1;34m~\x1b[0m$ `;
  for (const event of events) {
    switch (event.type) {
      case 'level_started':
        level = event.level;
        out(event.ts, crlf(`\x1b[2m$ ssh bandit${level}@${host} -p ${port}   # attempt ${event.attempt}\x1b[0m\n`));
        mark(event.ts, `level ${level}, attempt ${event.attempt}`);
        break;
      case 'command':
        out(event.ts, `${prompt()}${crlf(event.command)}\r\n`);
        break;
      case 'output': {
        const text = event.stdout + (event.stderr ? `\x1b[31m${field(event.stderr)}\x1b[0m` : '');
        if (text) out(event.ts, crlf(text.endsWith('\n') ? text : `${text}\n`));
        break;
      }
      case 'password_found':
        out(event.ts, crlf(`\x1b[1;33m# bandit${event.level + 1}'s password: ${field(event.password)}\x1b[0m\n`));
        break;
      case 'user_action_required':
        out(
          event.ts,
          crlf(`\x1b[1;35m# paused (${event.reason}): ${field(event.lastError ?? 'the agent asks for help')}\x1b[0m\n`),
        );
        mark(event.ts, `paused at level ${event.level}: ${event.reason.replace(/_/g, ' ')}`);
        break;
      case 'user_action_resolved':
        out(
          event.ts,
          crlf(`\x1b[1;35m# ${event.action}${event.hint ? ` with a hint: ${field(event.hint)}` : ''}\x1b[0m\n`),
        );
        break;
      case 'message_sent':
        out(event.ts, crlf(`\x1b[1;35m# a message to the agent: ${field(event.text)}\x1b[0m\n`));
        break;
      case 'takeover_started':
        screen = new ScreenDecoder();
        line(event.ts, 'r', `${event.cols}x${event.rows}`);
        out(event.ts, crlf(`\x1b[1;35m# ${field(event.by)} took the terminal\x1b[0m\n`));
        mark(event.ts, `a person took the terminal at level ${event.level}`);
        break;
      case 'terminal_output': {
        // asciicast v2's resize event, so the player redraws a shrunk screen (level 25's `more`) as it was.
        if (event.cols && event.rows) line(event.ts, 'r', `${event.cols}x${event.rows}`);
        const text = screen.next(event.data);
        if (text) out(event.ts, text);
        break;
      }
      case 'takeover_ended':
        // The person's screen may have left colours, modes or the alternate screen on: reset them first.
        out(
          event.ts,
          `\x1b[0m\x1b[?1049l\r\n${crlf(`\x1b[1;35m# the terminal closed (${field(event.reason)})\x1b[0m\n`)}`,
        );
        line(event.ts, 'r', `${WIDTH}x${HEIGHT}`);
        break;
      case 'run_complete':
        out(event.ts, crlf(`\x1b[1m# run ${event.status}: ${event.levelsSolved} level(s) solved\x1b[0m\n`));
        break;
    }
  }
  return `${lines.join('\n')}\n`;
}
