// The levels a run solved and the commands that solved each, folded from its event log: the commands
// of the attempt that proved the password (or of the final attempt, when that solved it). Both the
// archive's replay scripts and a verification run's plan are built from this.
import type { RunEvent, SolvedBy } from '../../schema/protocol.ts';
import { REDACTED } from '../../schema/protocol.ts';
import type { ReplayPlan } from '../../schema/run.ts';
import { LEVEL_PASSWORD_PLACEHOLDER } from '../../schema/run.ts';

export type SolvedLevel = {
  level: number;
  commands: { command: string; exitCode: number | null }[];
  /** As the event log holds it: "[redacted]" when a person typed it. */
  password: string;
  /** The password of the level itself (what the agent logged in with), when the log shows it. */
  levelPassword: string | null;
  solvedBy: SolvedBy;
};

/** The levels solved and their commands, folded an event at a time; holds only the attempt in progress besides. */
export class SolvedLevelsFold {
  readonly solved: SolvedLevel[] = [];
  private commands: { id: string; command: string; exitCode: number | null }[] = [];
  private password: string | null = null;
  private readonly proven = new Map<number, string>([[0, 'bandit0']]);

  add(event: RunEvent): void {
    switch (event.type) {
      case 'level_started':
        this.commands = [];
        this.password = null;
        break;
      case 'llm_call':
        // The final attempt's own commands are what solved the level, when it did.
        if (event.stage === 'final') this.commands = [];
        break;
      case 'command':
        this.commands.push({ id: event.commandId, command: event.command, exitCode: null });
        break;
      case 'output': {
        const run = this.commands.find((c) => c.id === event.commandId);
        if (run) run.exitCode = event.exitCode;
        break;
      }
      case 'password_found':
        this.password = event.password;
        break;
      case 'level_complete':
        if (this.password !== null) {
          const levelPassword = this.proven.get(event.level) ?? null;
          this.solved.push({
            level: event.level,
            commands: this.commands.map(({ command, exitCode }) => ({ command, exitCode })),
            password: this.password,
            levelPassword,
            solvedBy: event.solvedBy ?? 'agent',
          });
          this.proven.set(event.nextLevel, this.password);
        }
        this.password = null;
        this.commands = [];
        break;
    }
  }
}

export function solvedLevels(events: readonly RunEvent[]): SolvedLevel[] {
  const fold = new SolvedLevelsFold();
  for (const event of events) fold.add(event);
  return fold.solved;
}

/** The levels a replay can re-solve: in a row from `startLevel`, each proven by the agent's own commands. */
export function replayableLevels(solved: readonly SolvedLevel[], startLevel: number): SolvedLevel[] {
  const chain: SolvedLevel[] = [];
  for (const level of solved) {
    const next = startLevel + chain.length;
    if (
      level.level !== next ||
      level.solvedBy === 'person' ||
      level.password === REDACTED ||
      level.commands.length === 0
    )
      break;
    chain.push(level);
  }
  return chain;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The level's commands with its own password (echo <pw> | nc …) written as `placeholder`, so neither
 * a script nor a verification run's config holds it; each puts the password back when it runs.
 */
export function commandsWithout(level: SolvedLevel, placeholder: string): SolvedLevel['commands'] {
  const own = level.levelPassword;
  // bandit0's password is public and a word too short to replace safely inside other text.
  if (!own || own === 'bandit0') return level.commands;
  return level.commands.map((c) => ({ ...c, command: c.command.split(own).join(placeholder) }));
}

/** The plan a verification run of `runId` re-plays; null when no level can be replayed. */
export async function replayPlan(runId: string, levels: readonly SolvedLevel[]): Promise<ReplayPlan | null> {
  if (levels.length === 0) return null;
  return {
    of: runId,
    levels: await Promise.all(
      levels.map(async (l) => ({
        level: l.level,
        commands: commandsWithout(l, LEVEL_PASSWORD_PLACEHOLDER),
        passwordSha256: await sha256Hex(l.password),
      })),
    ),
  };
}
