// `bandit-runner share RUN [--expires 1h] [--label text]`: a read-only link to one run (operator
// token needed); it prints the link, whose token rides in the fragment. `--revoke ID` ends a link.
import { checkedRunId } from '../run-id-arg.ts';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { createdShareSchema, tokenInfoSchema } from '../../schema/access.ts';
import { parseDuration } from '../budget-flags.ts';
import { EXIT } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom } from '../global-options.ts';
import { safe } from '../render/event-line.ts';

type ShareOptions = { expires?: number; label?: string; revoke?: string };

/** `--expires`: seconds, or like 90m, 12h, 7d; at least a minute. */
export function expiresOption(text: string): number {
  const days = /^(\d+(?:\.\d+)?)\s*d$/i.exec(text.trim());
  const seconds = days ? Number(days[1]) * 86_400 : parseDuration(text);
  if (seconds === null || seconds < 60)
    throw new InvalidArgumentError('--expires must be at least a minute: seconds, or like 90m, 12h or 7d');
  return Math.round(seconds);
}

/** Registers `share RUN`. */
export function registerShare(program: Command, globals: () => GlobalOptions, exit: (code: ExitCode) => void): void {
  program
    .command('share')
    .argument('<run>', 'the run id (run_…)')
    .option(
      '--expires <duration>',
      'the link stops working after this long (e.g. 1h, 7d); default: never',
      expiresOption,
    )
    .option('--label <text>', 'a note to tell the link apart in the list')
    .option('--revoke <shareId>', 'end this link of the run instead (shr_…); its next use is refused')
    .description('Make a read-only link to a run: it opens the run page live, its redacted artifacts, nothing else')
    .addHelpText(
      'after',
      `
Examples:
  $ bandit-runner share run_0mwttwzkcgphqalgd6x27up1o --expires 1d
  $ bandit-runner share run_0mwttwzkcgphqalgd6x27up1o --revoke shr_Zk3…`,
    )
    .action(async (runId: string, options: ShareOptions) => exit(await share(runId, options, globals())));
}

async function share(runId: string, options: ShareOptions, g: GlobalOptions): Promise<ExitCode> {
  checkedRunId(runId);
  const client = clientFrom(g);
  if (options.revoke) {
    const gone = await client.delete(
      `/api/runs/${runId}/shares/${encodeURIComponent(options.revoke)}`,
      tokenInfoSchema,
    );
    process.stdout.write(`revoked ${safe(gone.id)}; the link no longer opens ${safe(runId)}\n`);
    return EXIT.completed;
  }
  const made = await client.post(
    `/api/runs/${runId}/shares`,
    {
      ...(options.expires ? { expiresInSeconds: options.expires } : {}),
      ...(options.label ? { label: options.label } : {}),
    },
    createdShareSchema,
  );
  // The link alone on stdout (for scripts); what it is on stderr.
  process.stderr.write(
    `read-only link to ${safe(runId)} (${safe(made.id)}), ${made.expiresAt ? `until ${made.expiresAt}` : 'no expiry'}; shown once\n`,
  );
  process.stdout.write(`${safe(made.url)}\n`);
  return EXIT.completed;
}
