// A command the target may or may not have run: the proxy running it died before its output came back,
// so it was not sent again (ssh-proxy/agent/nodes/command-once.ts). One owner for the words, which the
// output event carries in its stderr, the agents read in their history and the chaos audit counts.
export const LOST_COMMAND_NOTE =
  '[bandit-runner: the proxy running this command was lost before its output came back; it may have run, so it was not run again]';

/** Whether a command's output (as an event's stderr, or as the history shows both streams) is the lost note. */
export function isLostOutput(output: string): boolean {
  return output.includes(LOST_COMMAND_NOTE);
}
