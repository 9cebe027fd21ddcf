// One stored event as the terminal shows it: the agent's story (thinking, commands, output, levels,
// lessons, pauses and answers), one or a few lines each; scheduling detail stays out unless verbose.
// Every line goes through terminalText: what a target or a model wrote is shown, never obeyed.
import { answererText } from '../../schema/answered-by.ts';
import { breachText, raiseText } from '../../schema/budget.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { terminalText } from '../../schema/terminal-text.ts';
import type { Colors } from './colors.ts';

const OUTPUT_LINES = 8;
/** Characters of one line shown on the terminal; `export` has every byte. */
export const LINE_CHARS = 4_000;

/** Any text bound for the terminal: escapes and controls made visible, one line cut at LINE_CHARS. */
export const safe = (text: string): string => terminalText(text, { max: LINE_CHARS });

/** How much of each event to show: `verbose` adds model calls, graph nodes and status changes, and whole outputs. */
export type EventLineOptions = { verbose?: boolean };

/** The event's lines, each safe to write to a terminal. */
export function eventLines(event: RunEvent, c: Colors, options: EventLineOptions = {}): string[] {
  return rawLines(event, c, options.verbose ?? false).map(safe);
}

function rawLines(event: RunEvent, c: Colors, verbose: boolean): string[] {
  switch (event.type) {
    case 'level_started':
      return [c.bold(`── level ${event.level}, attempt ${event.attempt}`)];
    case 'thinking':
      return [`${c.dim('thinking')} ${event.text}`];
    case 'command':
      return [`${c.cyan('$')} ${event.command}`];
    case 'output': {
      // Sanitised before the split, so a CR (which could overwrite a line) becomes a line of its own.
      const text = terminalText([event.stdout, event.stderr].filter(Boolean).join('\n')).replace(/\n$/, '');
      const lines = text ? text.split('\n') : ['(no output)'];
      const shown =
        lines.length > OUTPUT_LINES && !verbose
          ? [...lines.slice(0, OUTPUT_LINES), c.dim(`… ${lines.length - OUTPUT_LINES} more lines`)]
          : lines;
      const status =
        event.exitCode === 0 ? [] : [c.yellow(event.exitCode === null ? '(timed out)' : `(exit ${event.exitCode})`)];
      return [...shown.map((l) => `  ${l}`), ...status];
    }
    case 'level_complete':
      return [
        c.green(
          `✓ level ${event.level} solved with ${event.commands} ${event.commands === 1 ? 'command' : 'commands'}${event.solvedBy === 'person' ? ' (password from a person)' : ''}`,
        ),
      ];
    case 'attempt_failed':
      return [
        c.yellow(
          `✗ attempt ${event.attempt} failed: ${event.reason.replaceAll('_', ' ')} (${event.retryCount}/${event.maxRetries} retries)`,
        ),
        ...event.lessons.map((l) => c.dim(`  lesson: ${l.text}`)),
      ];
    case 'error':
      return [c.red(`error ${event.code}: ${event.message}`)];
    case 'user_action_required':
      if (event.reason === 'budget_exceeded')
        return [
          c.magenta(`⏸ level ${event.level}: ${event.breach ? breachText(event.breach) : 'paused at a budget cap'}`),
        ];
      return [
        c.magenta(
          `⏸ paused at level ${event.level}: ${event.reason.replaceAll('_', ' ')}${event.lastError ? ` — ${event.lastError}` : ''}`,
        ),
      ];
    case 'user_action_resolved':
      return [
        c.magenta(`▶ ${event.action}${event.hint ? ` with hint "${event.hint}"` : ''} (by ${answererText(event.by)})`),
      ];
    case 'caps_raised':
      return [
        c.magenta(`▲ ${raiseText(event.caps, event.batchMaxCostUsd) || 'caps raised'} (by ${answererText(event.by)})`),
      ];
    case 'forked':
      return [
        c.magenta(`⑂ forked from ${event.parentId} at step ${event.forkSeq}; the events before are the parent's`),
      ];
    case 'message_sent':
      return [c.magenta(`✉ message "${event.text}" (by ${answererText(event.by)})`)];
    case 'message_read':
      return [c.magenta(`✉ the agent read the message (#${event.messageSeq})`)];
    // The terminal's bytes are not shown here: `attach` holds it, the run page and terminal.cast replay it.
    case 'takeover_started':
      return [c.magenta(`⌨ ${answererText(event.by)} took the terminal at level ${event.level}`)];
    case 'takeover_ended': {
      const proved = event.provedLevel === undefined ? '' : `, proved level ${event.provedLevel}`;
      const why = event.message ? ` — ${event.message}` : '';
      const held = `${Math.round(event.durationMs / 1000)} s by ${answererText(event.by)}`;
      const lines =
        event.commands === undefined ? '' : `, ${event.commands} ${event.commands === 1 ? 'line' : 'lines'}`;
      return [c.magenta(`⌨ the terminal closed: ${event.reason} (held ${held}${lines}${proved})${why}`)];
    }
    case 'run_complete':
      return [
        c.bold(
          `run ${event.status}: ${event.levelsSolved} ${event.levelsSolved === 1 ? 'level' : 'levels'} solved${event.reason ? ` (${event.reason})` : ''}`,
        ),
      ];
    case 'llm_call':
      return verbose
        ? [
            c.dim(
              `model ${event.model} ${event.stage}: ${event.promptTokens}+${event.completionTokens} tokens, ${event.latencyMs} ms${event.errorClass ? `, ${event.errorClass}` : ''}`,
            ),
          ]
        : [];
    case 'node':
      return verbose ? [c.dim(`node ${event.name} ${event.durationMs} ms ${event.status}`)] : [];
    case 'status_changed':
      return verbose ? [c.dim(`status ${event.from} → ${event.to}${event.reason ? ` (${event.reason})` : ''}`)] : [];
    default:
      return [];
  }
}
