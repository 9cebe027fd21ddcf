// Runs one corpus entry on each side of the differential test: over SSH on the range, and under real
// bash in the chroot. A session's logins are separate SSH connections on the range and separate bash
// processes in the same chroot on the real side; its compared output is each login's, in turn.
import type { RunningRange } from '../../../practice/server.ts';
import { sshExec, sshExecInOrder } from '../../support/ssh-client.ts';
import type { CorpusLine } from './corpus.ts';
import type { RealWorld } from './real-world.ts';
import type { SessionStep } from './sessions.ts';

export type SideResult = { stdout: string; exitCode: number };

/** How often, and how many times, the range is asked whether cron has done its work. */
const CRON_POLL_MS = 200;
const CRON_POLLS = 150;

/** What one login printed, headed by who logged in and how its command line ended. */
function loginOutput(step: { user: string }, exitCode: number, stdout: string): string {
  return `--- ${step.user} logged in; exit ${exitCode}\n${stdout}`;
}

export async function rangeSide(range: RunningRange, line: CorpusLine): Promise<SideResult> {
  const login = (user: string) => ({
    port: range.port,
    username: user,
    password: range.world.passwords[Number(user.slice('bandit'.length))]!,
  });
  if (line.merged) {
    const ours = await sshExecInOrder(login(line.user), line.command);
    return { stdout: ours.merged, exitCode: ours.code ?? -1 };
  }
  if (!line.steps) {
    const ours = await sshExec(login(line.user), line.command);
    return { stdout: ours.stdout, exitCode: ours.code ?? -1 };
  }
  let stdout = '';
  let exitCode = 0;
  for (const step of line.steps) {
    if ('cron' in step) {
      await untilCronRan(step, (command) => sshExec(login(step.user), command));
      continue;
    }
    const ours = await sshExec(login(step.user), step.command);
    exitCode = ours.code ?? -1;
    stdout += loginOutput(step, exitCode, ours.stdout);
  }
  return { stdout, exitCode };
}

/** Waits for the range's cron, a bounded number of polls: a job that never runs shows as a difference. */
async function untilCronRan(
  step: Extract<SessionStep, { cron: string }>,
  exec: (command: string) => Promise<{ code: number | null }>,
): Promise<void> {
  for (let poll = 0; poll < CRON_POLLS; poll++) {
    if ((await exec(step.until)).code === 0) return;
    await new Promise((resolve) => setTimeout(resolve, CRON_POLL_MS));
  }
}

export async function realSide(real: RealWorld, line: CorpusLine): Promise<SideResult> {
  if (!line.steps) {
    const theirs = await real.run(line.user, line.command, { merged: line.merged ?? false });
    return { stdout: theirs.stdout, exitCode: theirs.exitCode };
  }
  let stdout = '';
  let exitCode = 0;
  for (const step of line.steps) {
    // cron, as the real server's runs it: the job's own script, as its user, under real bash.
    if ('cron' in step) {
      await real.run(step.cron, `/usr/bin/cronjob_${step.cron}.sh > /dev/null 2>&1`);
      continue;
    }
    const theirs = await real.run(step.user, step.command);
    exitCode = theirs.exitCode;
    stdout += loginOutput(step, exitCode, theirs.stdout);
  }
  return { stdout, exitCode };
}
