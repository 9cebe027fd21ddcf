// A command the target may or may not have run: the proxy running it died before its output came back
// (ssh-proxy/agent/nodes/command-once.ts), or its SSH connection dropped once it was sent
// (ssh-proxy/ssh/ssh-session.ts), so it was not sent again. One owner for the words, which the output event
// carries in its stderr, the agents read in their history and the chaos audit counts.
export const LOST_COMMAND_NOTE =
  '[bandit-runner: the proxy running this command was lost before its output came back; it may have run, so it was not run again]';

/**
 * A command whose SSH connection dropped after it was sent and before the server answered: the server may have
 * run it, so the proxy does not send it again on a new connection (ssh-proxy/ssh/ssh-session.ts).
 */
export const DROPPED_COMMAND_NOTE =
  '[bandit-runner: the SSH connection dropped after this command was sent and before the server answered; it may have run, so it was not run again]';

/** Whether a command's output (as an event's stderr, or as the history shows both streams) is a lost note. */
export function isLostOutput(output: string): boolean {
  return output.includes(LOST_COMMAND_NOTE) || output.includes(DROPPED_COMMAND_NOTE);
}
