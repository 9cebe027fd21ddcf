// The archive's pure parts: the version it states, redaction, which levels a replay covers, and the
// shell quoting of replayed commands (checked by real bash).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { runConfigSchema } from '../../schema/run.ts';
import { APP_VERSION } from '../../schema/version.ts';
import { redact, secretsOf } from '../../worker/artifacts/redact.ts';
import { shellQuote } from '../../worker/artifacts/replay-scripts.ts';
import { commandsWithout, replayableLevels, solvedLevels } from '../../worker/artifacts/solved-levels.ts';
import { terminalCast } from '../../worker/artifacts/terminal-cast.ts';
import { asciinemaCat } from '../support/asciinema.ts';

const PW1 = 'A'.repeat(32);
const PW2 = 'B'.repeat(32);
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\ndef\n-----END OPENSSH PRIVATE KEY-----';
let seq = 0;
const ev = (body: Record<string, unknown>): RunEvent =>
  ({ seq: ++seq, ts: '2026-11-22T00:00:00.000Z', runId: 'run_00000000000000000000', ...body }) as RunEvent;

const events: RunEvent[] = [
  ev({ type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
  ev({ type: 'command', level: 0, commandId: 'cmd_1', command: 'cat readme' }),
  ev({
    type: 'output',
    level: 0,
    commandId: 'cmd_1',
    stdout: `${PW1}\n`,
    stderr: '',
    exitCode: 0,
    durationMs: 3,
    truncated: false,
  }),
  ev({ type: 'password_found', level: 0, password: PW1 }),
  ev({ type: 'level_complete', level: 0, nextLevel: 1, commands: 1, durationMs: 9, solvedBy: 'agent' }),
  ev({ type: 'level_started', level: 1, attempt: 1, retryCount: 0 }),
  ev({ type: 'command', level: 1, commandId: 'cmd_2', command: 'ls' }),
  ev({
    type: 'output',
    level: 1,
    commandId: 'cmd_2',
    stdout: KEY,
    stderr: '',
    exitCode: 0,
    durationMs: 3,
    truncated: false,
  }),
  // The final attempt solved level 1: only its own commands solved it.
  ev({
    type: 'llm_call',
    callId: 'llm_3',
    model: 'm',
    stage: 'final',
    level: 1,
    promptTokens: 1,
    completionTokens: 1,
    latencyMs: 1,
    costUsd: null,
    errorClass: null,
  }),
  ev({ type: 'command', level: 1, commandId: 'cmd_4', command: `echo ${PW1} | nc localhost 30000` }),
  ev({
    type: 'output',
    level: 1,
    commandId: 'cmd_4',
    stdout: `${PW2}\n`,
    stderr: '',
    exitCode: 0,
    durationMs: 3,
    truncated: false,
  }),
  ev({ type: 'password_found', level: 1, password: PW2 }),
  ev({ type: 'level_complete', level: 1, nextLevel: 2, commands: 2, durationMs: 9, solvedBy: 'final_attempt' }),
  ev({ type: 'password_found', level: 2, password: '[redacted]' }),
  ev({ type: 'level_complete', level: 2, nextLevel: 3, commands: 0, durationMs: 9, solvedBy: 'person' }),
];

describe('the archive', () => {
  it('states the version package.json has', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(APP_VERSION).toBe(pkg.version);
  });

  it('redacts every proven password and private key, as written and inside JSON strings', () => {
    const secrets = secretsOf(events);
    expect(secrets.map((s) => s.redaction.placeholder)).toEqual([
      '[REDACTED:bandit1-password]',
      '[REDACTED:private-key-1]',
      '[REDACTED:bandit2-password]',
    ]);
    const text = redact(`${JSON.stringify(events)}\n${KEY}\n${PW2}`, secrets);
    for (const secret of [PW1, PW2, 'abc\\ndef', 'abc\ndef']) expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED:private-key-1]');
  });

  it("replays the solving commands of each level in a row, the final attempt's alone, up to a person's password", () => {
    const solved = solvedLevels(events);
    expect(solved.map((l) => [l.level, l.solvedBy, l.commands.map((c) => c.command)])).toEqual([
      [0, 'agent', ['cat readme']],
      [1, 'final_attempt', [`echo ${PW1} | nc localhost 30000`]],
      [2, 'person', []],
    ]);
    expect(replayableLevels(solved, 0).map((l) => l.level)).toEqual([0, 1]);
    expect(replayableLevels(solved, 1)).toEqual([]);
    expect(commandsWithout(solved[1]!, '{{p}}')[0]!.command).toBe('echo {{p}} | nc localhost 30000');
  });

  it('quotes a command so that bash reads it back exactly', () => {
    for (const command of [`echo 'it''s' "$HOME" \`id\` \\ ; | & *`, "a'b", '']) {
      const echoed = spawnSync('bash', ['-c', `printf %s ${shellQuote(command)}`], { encoding: 'utf8' });
      expect(echoed.stdout).toBe(command);
    }
  });
});

describe('terminal.cast', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 0, 0, s)).toISOString();
  const timed = (s: number, body: Record<string, unknown>): RunEvent => ({ ...ev(body), ts: at(s) }) as RunEvent;
  const log: RunEvent[] = [
    timed(0, { type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
    timed(1, { type: 'command', level: 0, commandId: 'cmd_1', command: 'cat readme' }),
    timed(2, {
      type: 'output',
      level: 0,
      commandId: 'cmd_1',
      stdout: 'no luck\n',
      stderr: '',
      exitCode: 0,
      durationMs: 3,
      truncated: false,
    }),
    timed(3, {
      type: 'user_action_required',
      reason: 'max_retries',
      level: 0,
      retryCount: 1,
      maxRetries: 1,
      lastError: null,
      lessons: [],
    }),
    timed(9, { type: 'user_action_resolved', action: 'continue', by: 'the CLI' }),
    timed(10, { type: 'level_started', level: 0, attempt: 2, retryCount: 0 }),
    timed(12, { type: 'level_complete', level: 0, nextLevel: 1, commands: 1, durationMs: 2 }),
    timed(13, { type: 'level_started', level: 1, attempt: 1, retryCount: 0 }),
  ];
  const cast = terminalCast('run_cast0000000000000000', runConfigSchema.parse({}), log, '127.0.0.1:2220');

  it('marks each level start and each pause with an asciicast marker at its time', () => {
    const [, ...body] = cast.trimEnd().split('\n');
    const markers = body.map((line) => JSON.parse(line) as [number, string, string]).filter(([, code]) => code === 'm');
    expect(markers).toEqual([
      [0, 'm', 'level 0, attempt 1'],
      [3, 'm', 'paused at level 0: max retries'],
      [10, 'm', 'level 0, attempt 2'],
      [13, 'm', 'level 1, attempt 1'],
    ]);
  });

  it("still plays in Debian's asciinema, which shows the output and none of the markers' labels", () => {
    const shown = asciinemaCat(cast);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('cat readme');
    expect(shown.stdout).toContain('no luck');
    expect(shown.stdout).not.toContain('level 0, attempt 2');
    expect(shown.stdout).not.toContain('paused at level 0');
  });
});
