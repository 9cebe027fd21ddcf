// run.log: one readable line per event — time, level, node (or event type), text. Each line goes
// through plainText, so what a target or a model wrote shows as text: no escapes, colour or binary.
// Written a page of the log at a time (RunLogWriter), so the archive never holds the whole file.
import { answererText } from '../../schema/answered-by.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { plainText } from '../../schema/terminal-text.ts';
import { raiseText } from '../../schema/budget.ts';

const oneLine = (text: string, max = 300): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

function describe(event: RunEvent): string {
  switch (event.type) {
    case 'run_created':
      return `run created: ${event.config.model} on ${event.config.target}, levels ${event.config.startLevel}-${event.config.endLevel}, ${event.config.maxRetries} retries, budget ${event.config.budget}`;
    case 'forked':
      return `forked from ${event.parentId} at step ${event.forkSeq}${event.changes.model ? `, model ${event.changes.model}` : ''}${event.changes.hint ? `, hint: ${oneLine(event.changes.hint, 120)}` : ''}`;
    case 'status_changed':
      return `${event.from} -> ${event.to}${event.reason ? ` (${event.reason})` : ''}`;
    case 'level_started':
      return `attempt ${event.attempt} (retries used: ${event.retryCount})`;
    case 'thinking':
      return oneLine(event.text);
    case 'command':
      return `$ ${oneLine(event.command)}`;
    case 'output':
      return `exit ${event.exitCode ?? 'none'} in ${event.durationMs} ms, ${event.stdout.length + event.stderr.length} chars${event.truncated ? ' (truncated)' : ''}`;
    case 'password_found':
      return `bandit${event.level + 1}'s password proven: ${event.password}`;
    case 'level_complete':
      return `level solved in ${event.commands} commands, ${(event.durationMs / 1000).toFixed(1)} s, by ${event.solvedBy ?? 'agent'}`;
    case 'attempt_failed':
      return `attempt ${event.attempt} failed (${event.reason}), retry ${event.retryCount}/${event.maxRetries}${event.lessons.length ? `; lessons: ${event.lessons.map((l) => oneLine(l.text, 120)).join(' | ')}` : ''}`;
    case 'llm_call':
      return `${event.model} ${event.stage}: ${event.promptTokens} in / ${event.completionTokens} out, ${event.latencyMs} ms${event.costUsd !== null ? `, $${event.costUsd.toFixed(6)}` : ''}${event.errorClass ? `, error ${event.errorClass}` : ''}`;
    case 'node':
      return `${event.durationMs} ms, ${event.status}${event.error ? `: ${oneLine(event.error)}` : ''}`;
    case 'error':
      return `${event.code}: ${oneLine(event.message)}`;
    case 'user_action_required':
      return `paused (${event.reason}): ${oneLine(event.lastError ?? 'waiting for a person')}`;
    case 'user_action_resolved':
      return `${event.action} by ${answererText(event.by)}${event.hint ? `, hint: ${oneLine(event.hint)}` : ''}`;
    case 'message_sent':
      return `message from ${answererText(event.by)}: ${oneLine(event.text)}`;
    case 'message_read':
      return `the agent read the message at seq ${event.messageSeq}`;
    case 'caps_raised':
      return `${answererText(event.by)} raised ${raiseText(event.caps, event.batchMaxCostUsd)}`;
    case 'takeover_started':
      return `${answererText(event.by)} took the terminal (${event.cols}x${event.rows})`;
    case 'terminal_output':
      return `${Math.floor((event.data.length * 3) / 4)} bytes of terminal output`;
    case 'takeover_ended':
      return `the terminal closed (${event.reason}) after ${(event.durationMs / 1000).toFixed(1)} s${event.provedLevel !== undefined ? `, level ${event.provedLevel} proven` : ''}`;
    case 'verify_level':
      return `${event.verdict}: ${oneLine(event.detail)} (original ${event.originalRunId})`;
    case 'run_complete':
      return `run ${event.status}, ${event.levelsSolved} level(s) solved${event.reason ? ` (${oneLine(event.reason)})` : ''}`;
  }
}

/** run.log's writer: each event's line as it comes; the level a line shows is the last one an event named. */
export class RunLogWriter {
  private level: number | null = null;
  private written = 0;

  /** The lines of `events`, each ending in a newline. */
  write(events: readonly RunEvent[]): string {
    let text = '';
    for (const event of events) {
      if ('level' in event && typeof event.level === 'number') this.level = event.level;
      const node = event.type === 'node' ? event.name : event.type;
      const level = this.level === null ? '--' : String(this.level).padStart(2, '0');
      const line = `${event.ts}  L${level}  ${node.padEnd(22)}  ${describe(event)}`;
      text += `${plainText(line).replace(/\n/g, ' ')}\n`;
      this.written += 1;
    }
    return text;
  }

  /** What ends the file: nothing, or for a log with no events the one empty line it always had. */
  end(): string {
    return this.written === 0 ? '\n' : '';
  }
}

export function runLog(events: readonly RunEvent[]): string {
  const writer = new RunLogWriter();
  return writer.write(events) + writer.end();
}
