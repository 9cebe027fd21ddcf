// `bandit-runner compare A B`: two runs side by side, level by level, and the first point where they
// differ, as GET /api/compare answers it (schema/run-compare.ts defines it; docs/compare.md).
import { checkedRunId } from '../run-id-arg.ts';
import type { Command } from 'commander';
import { runComparisonSchema } from '../../schema/run-compare.ts';
import { safeJson } from '../../schema/terminal-text.ts';
import { EXIT } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom, colorsOf } from '../global-options.ts';
import { compareLines } from '../render/compare-table.ts';

/** Registers `compare`. */
export function registerCompare(program: Command, globals: () => GlobalOptions, exit: (code: ExitCode) => void) {
  program
    .command('compare')
    .argument('<a>', 'the first run id')
    .argument('<b>', 'the second run id')
    .description('Two runs side by side: each level, the totals, and the first point where they differ')
    .option('--json', "print the stack's comparison as JSON")
    .addHelpText(
      'after',
      `
Examples:
  $ bandit-runner compare run_0mwttwzkcgphqalgd6x27up1o run_0mwtu0b3k2e9xq4hd7s1pl6ma
  $ bandit-runner compare run_0mwttwzkcgphqalgd6x27up1o run_0mwtu0b3k2e9xq4hd7s1pl6ma --json | jq .firstDifference`,
    )
    .action(async (a: string, b: string, options: { json?: boolean }) => {
      const g = globals();
      const query = new URLSearchParams({ a: checkedRunId(a, '<a>'), b: checkedRunId(b, '<b>') });
      const comparison = await clientFrom(g).get(`/api/compare?${query}`, runComparisonSchema);
      const out = process.stdout;
      out.write(
        options.json
          ? `${safeJson(comparison, 2)}\n`
          : compareLines(comparison, colorsOf(g, out))
              .map((l) => `${l}\n`)
              .join(''),
      );
      exit(EXIT.completed);
    });
}
