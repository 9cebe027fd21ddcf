// The range's own record of the commands it was asked to run, as an audit log on a real host keeps one
// (PRACTICE_COMMAND_LOG): one JSON line per exec request, written before the command starts, so a
// command that ran is in the log even if the range or the client dies while it runs. The chaos tests
// read it to prove that no command reached the target twice.
import { appendFileSync } from 'node:fs';
import { z } from 'zod';

export const commandLogEntrySchema = z.object({
  at: z.string(),
  /** The client's address, as the range saw it. */
  address: z.string(),
  user: z.string(),
  /** The private world's key, or "shared". */
  world: z.string(),
  command: z.string(),
});
export type CommandLogEntry = z.infer<typeof commandLogEntrySchema>;

/** Appends each entry to `path` as one JSON line, synchronously: on disk before the command runs. */
export function commandLogFile(path: string): (entry: CommandLogEntry) => void {
  return (entry) => appendFileSync(path, `${JSON.stringify(entry)}\n`);
}

/** The entries of a log file's text, each checked. */
export function readCommandLog(text: string): CommandLogEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => commandLogEntrySchema.parse(JSON.parse(line)));
}
