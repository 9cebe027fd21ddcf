// A finished run of any length in the real message shapes, for the socket client's tests: its log
// (seq 1…n, every event checked by runEventSchema) and a snapshot that agrees with it.
import type { RunEvent, Snapshot } from '../../schema/protocol.ts';
import { runEventSchema } from '../../schema/protocol.ts';
import { runConfigSchema } from '../../schema/run.ts';

export const SOCKET_RUN_ID = 'run_socketclient0000000000';

const at = (seq: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, 0, seq * 1000)).toISOString();

/** What happens at one level, cycled until the log is long enough. */
const LEVEL_STEPS = ['level_started', 'thinking', 'llm_call', 'command', 'output', 'level_complete'] as const;

function stepAt(step: (typeof LEVEL_STEPS)[number], level: number, seq: number): Record<string, unknown> {
  const commandId = `cmd_${level}`;
  switch (step) {
    case 'level_started':
      return { type: step, level, attempt: 1, retryCount: 0 };
    case 'thinking':
      return { type: step, level, text: `level ${level}: read the readme (seq ${seq})` };
    case 'llm_call':
      return {
        type: step,
        callId: `llm-${seq}`,
        model: 'baseline',
        stage: 'plan',
        level,
        promptTokens: 100 + seq,
        completionTokens: 10 + level,
        latencyMs: 5,
        costUsd: 0.001,
        errorClass: null,
      };
    case 'command':
      return { type: step, level, commandId, command: 'cat readme' };
    case 'output':
      return {
        type: step,
        level,
        commandId,
        stdout: `pw${level}\n`,
        stderr: '',
        exitCode: 0,
        durationMs: 3,
        truncated: false,
      };
    case 'level_complete':
      return { type: step, level, nextLevel: level + 1, commands: 1, durationMs: 9, solvedBy: 'agent' };
  }
}

/** A completed run of `n` events (n ≥ 3), and the snapshot a server would send for it. */
export function socketRunLog(n: number): { events: RunEvent[]; snapshot: Snapshot } {
  if (n < 3) throw new Error(`a run log needs at least 3 events (created, running, complete), not ${n}`);
  const config = runConfigSchema.parse({ model: 'baseline', target: 'practice', startLevel: 0, endLevel: 30 });
  const bodies: Record<string, unknown>[] = [
    { type: 'run_created', config },
    { type: 'status_changed', from: 'queued', to: 'running' },
  ];
  let solved = 0;
  for (let i = 0; bodies.length < n - 1; i++) {
    const step = LEVEL_STEPS[i % LEVEL_STEPS.length]!;
    if (step === 'level_complete') solved += 1;
    bodies.push(stepAt(step, Math.floor(i / LEVEL_STEPS.length), bodies.length + 1));
  }
  bodies.push({ type: 'run_complete', status: 'completed', levelsSolved: solved });
  const events = bodies.map((body, i) =>
    runEventSchema.parse({ seq: i + 1, ts: at(i + 1), runId: SOCKET_RUN_ID, ...body }),
  );
  const last = events.findLast((e) => e.type === 'level_complete');
  const snapshot: Snapshot = {
    run: {
      id: SOCKET_RUN_ID,
      config,
      status: 'completed',
      currentLevel: last?.type === 'level_complete' ? last.nextLevel : 0,
      levelsSolved: solved,
      createdAt: at(1),
      updatedAt: at(n),
      startedAt: at(2),
      endedAt: at(n),
      lastError: null,
    },
    lastSeq: n,
    pendingAction: null,
    live: null,
    queuePosition: null,
  };
  return { events, snapshot };
}
