// `bandit-runner list targets|levels|models|runs`: what can be run, and what has run.
import type { Command } from 'commander';
import { safeJson } from '../../schema/terminal-text.ts';
import { TARGET_LEVELS, levelGoal, targetSchema } from '../../schema/levels.ts';
import type { Target } from '../../schema/levels.ts';
import { modelListSchema } from '../../schema/protocol.ts';
import { runListSchema, runStatusSchema } from '../../schema/run.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom, colorsOf } from '../global-options.ts';
import { safe } from '../render/event-line.ts';

type ListOptions = { target?: string; status?: string; json?: boolean };
const WHAT = ['targets', 'levels', 'models', 'runs'] as const;

export function registerList(program: Command, globals: () => GlobalOptions, exit: (code: ExitCode) => void): void {
  program
    .command('list')
    .argument('<what>', WHAT.join('|'))
    .description('List targets, their levels, the models the stack offers, or runs')
    .option('--target <target>', 'levels of this target, or only runs on it (practice or bandit)')
    .option('--status <status>', `runs with this status (${runStatusSchema.options.join(', ')})`)
    .option('--json', 'print JSON for scripts')
    .addHelpText(
      'after',
      `
Examples:
  $ bandit-runner list models
  $ bandit-runner list levels --target practice
  $ bandit-runner list runs --status paused_for_user_action --json`,
    )
    .action(async (what: string, options: ListOptions) => exit(await list(what, options, globals())));
}

async function list(what: string, options: ListOptions, g: GlobalOptions): Promise<ExitCode> {
  const out = process.stdout;
  const c = colorsOf(g, out);
  const print = (json: unknown, lines: string[]) =>
    out.write(options.json ? `${safeJson(json, 2)}\n` : lines.map((l) => `${safe(l)}\n`).join(''));
  switch (what) {
    case 'targets':
      print(
        { targets: targetSchema.options.map((t) => ({ target: t, ...TARGET_LEVELS[t] })) },
        targetSchema.options.map(
          (t) => `${t.padEnd(9)} levels 0-${TARGET_LEVELS[t].lastLevel}  ${TARGET_LEVELS[t].title}`,
        ),
      );
      return EXIT.completed;
    case 'levels': {
      const parsed = targetSchema.safeParse(options.target ?? 'practice');
      if (!parsed.success)
        throw new CliError(
          `--target: "${options.target}" is not one of ${targetSchema.options.join(', ')}`,
          EXIT.usage,
        );
      const target: Target = parsed.data;
      const levels = Array.from({ length: TARGET_LEVELS[target].lastLevel + 1 }, (_, i) => ({
        level: i,
        goal: levelGoal(target, i),
      }));
      print(
        { target, levels },
        levels.map((l) => `${c.bold(String(l.level).padStart(2))}  ${l.goal}`),
      );
      return EXIT.completed;
    }
    case 'models': {
      const { models } = await clientFrom(g).get('/api/models', modelListSchema);
      print(
        { models },
        models.map(
          (m) =>
            `${m.id.padEnd(32)} ${m.available ? c.green('available') : c.red(`unavailable: ${m.reason ?? '?'}`)}${m.maxConcurrent ? c.dim(`  ≤${m.maxConcurrent} at once`) : ''}`,
        ),
      );
      return EXIT.completed;
    }
    case 'runs': {
      if (options.status && !runStatusSchema.safeParse(options.status).success)
        throw new CliError(
          `--status: "${options.status}" is not one of ${runStatusSchema.options.join(', ')}`,
          EXIT.usage,
        );
      const query = new URLSearchParams({ limit: '50', ...(options.status ? { status: options.status } : {}) });
      if (options.target && !targetSchema.safeParse(options.target).success)
        throw new CliError(
          `--target: "${options.target}" is not one of ${targetSchema.options.join(', ')}`,
          EXIT.usage,
        );
      const runs = (await clientFrom(g).get(`/api/runs?${query}`, runListSchema)).runs.filter(
        (r) => !options.target || r.config.target === options.target,
      );
      print(
        { runs },
        runs.map(
          (r) =>
            `${r.id}  ${r.config.model.padEnd(20)} ${r.status.padEnd(22)} L${r.currentLevel}  ${r.levelsSolved} solved  ${r.createdAt}`,
        ),
      );
      return EXIT.completed;
    }
    default:
      throw new CliError(`list: "${what}" is not one of ${WHAT.join(', ')}`, EXIT.usage);
  }
}
