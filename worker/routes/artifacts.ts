// A run's record leaving the tool: GET /api/runs/:id/artifacts (one zip), GET /api/runs/:id/terminal.cast
// (the recording alone, for the browser's player), GET /api/runs/:id/report.html (the run as one offline
// page), POST /api/runs/:id/verify (a verification run that re-plays the solving commands without a
// model) and GET /api/runs/:id/verification (its reports). Each reads the run's log in pages from its
// object and streams what it writes, so a long run costs no more memory than a short one.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { artifactsQuerySchema } from '../../schema/artifacts.ts';
import type { VerificationReport } from '../../schema/artifacts.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { REPLAY_MODEL, runConfigSchema } from '../../schema/run.ts';
import type { RunSummary, Target } from '../../schema/run.ts';
import { archivedCallPages } from '../artifacts/archived-calls.ts';
import { prepareArchive } from '../artifacts/build-archive.ts';
import { sessionPages } from '../artifacts/log-pages.ts';
import type { LogPages } from '../artifacts/log-pages.ts';
import { REPORT_CSP } from '../artifacts/report-markup.ts';
import { SolvedLevelsFold, replayPlan, replayableLevels } from '../artifacts/solved-levels.ts';
import { VerdictsFold, reportOf } from '../artifacts/verification-report.ts';
import { readSettings } from '../env.ts';
import { readProxyHealth } from '../health.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { launchRun } from '../run-launch.ts';
import { existingSession, sessionFor, unknownRun } from '../run-lookup.ts';
import type { RunSession } from '../run-session/run-session.ts';
import { takeCreations } from '../creation-limit.ts';
import { readQuery } from '../validate.ts';

/** Verification runs: one attempt, enough steps for the longest solving sequence and a few candidates. */
const VERIFY_EXTRA_STEPS = 5;

/** A run's object, its run and its log through where it ends now, read in pages (never whole). */
async function runLogOf(session: DurableObjectStub<RunSession>, id: string) {
  const head = await session.archiveHead();
  if (!head) throw unknownRun(id);
  return { run: head.run as RunSummary, verifications: head.verifications, log: sessionPages(session, head.lastSeq) };
}

/** One pass over `log`, each fold given every event. */
async function foldLog(log: LogPages, ...folds: { add(event: RunEvent): void }[]): Promise<void> {
  for await (const page of log.pages()) for (const event of page) for (const fold of folds) fold.add(event);
}

/** Whether the query asks for the secrets (`?secrets=include`); 400 for any other query. */
function secretsWanted(c: Context): boolean {
  return readQuery(c, artifactsQuerySchema).secrets === 'include';
}

/** A run's verification report from its log; null when it is no verification run (or is gone). */
async function verdictsOf(run: RunSummary, log: LogPages): Promise<VerificationReport | null> {
  // Only a verification run has verdicts: any other run's log is not read at all (the run page asks every run).
  if (!run.config.replay) return null;
  const verdicts = new VerdictsFold();
  await foldLog(log, verdicts);
  return reportOf(run, verdicts.levels);
}

/** The reports of the runs that verified this one. */
async function reportsOf(env: Env, ids: readonly string[]): Promise<VerificationReport[]> {
  const reports = await Promise.all(
    ids.map(async (id) => {
      const session = sessionFor(env, id);
      const head = await session.archiveHead();
      return head ? verdictsOf(head.run as RunSummary, sessionPages(session, head.lastSeq)) : null;
    }),
  );
  return reports.filter((report): report is VerificationReport => report !== null);
}

/** The bandit server, where a run on the real game plays. */
const BANDIT_ADDRESS = { address: 'bandit.labs.overthewire.org:2220', host: 'bandit.labs.overthewire.org' };

/**
 * Where the run played: the address its last `level_started` names (`recorded`; the proxy records it), else
 * for older logs the practice range's address as the proxy reports it now (null when it cannot be asked).
 */
async function targetAddress(
  env: Env,
  target: Target,
  recorded: string | null,
): Promise<{ address: string | null; host: string }> {
  if (recorded) return { address: recorded, host: recorded.replace(/:\d+$/, '') };
  if (target === 'bandit') return BANDIT_ADDRESS;
  const settings = readSettings(env);
  const read = settings.ok ? await readProxyHealth(settings.settings.proxyUrl) : null;
  const address = read?.ok ? read.health.practice.address : null;
  return { address, host: address?.split(':')[0] ?? '127.0.0.1' };
}

/** The run's archive prepared from its object's log (and D1's model calls, for the zip). */
async function archiveOf(env: Env, id: string, includeSecrets: boolean, withCalls: boolean) {
  const session = await existingSession(env, id);
  const { run, verifications, log } = await runLogOf(session, id);
  const verifiedBy = withCalls ? await reportsOf(env, verifications) : [];
  const archive = await prepareArchive({
    run,
    log,
    calls: () => (withCalls ? archivedCallPages(env, run.id) : noCalls()),
    verifiedBy,
    target: (recorded) => targetAddress(env, run.config.target, recorded),
    includeSecrets,
  });
  return { run, archive };
}

async function* noCalls(): AsyncIterable<never[]> {}

/** A file's pieces as a response body. */
function textBody(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const it = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await it.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await it.return?.();
    },
  });
}

export const artifactRoutes = new Hono<{ Bindings: Env }>()
  .get('/:id/artifacts', async (c) => {
    const includeSecrets = secretsWanted(c);
    const { run, archive } = await archiveOf(c.env, c.req.param('id'), includeSecrets, true);
    return new Response(archive.zip(), {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${run.id}${includeSecrets ? '-with-secrets' : ''}.zip"`,
        'cache-control': 'no-store',
        'x-bandit-runner-secrets': includeSecrets ? 'included' : 'redacted',
      },
    });
  })
  .all('/:id/artifacts', methodNotAllowed(['GET']))
  .get('/:id/terminal.cast', async (c) => {
    const { archive } = await archiveOf(c.env, c.req.param('id'), secretsWanted(c), false);
    // The same recording as the archive's terminal.cast.
    return new Response(textBody(archive.file('terminal.cast')), {
      headers: { 'content-type': 'application/x-asciicast; charset=utf-8', 'cache-control': 'no-store' },
    });
  })
  .all('/:id/terminal.cast', methodNotAllowed(['GET']))
  .get('/:id/report.html', async (c) => {
    const includeSecrets = secretsWanted(c);
    const { run, archive } = await archiveOf(c.env, c.req.param('id'), includeSecrets, false);
    // The archive's report.html, written the same way, with the same last redaction pass.
    return new Response(textBody(archive.file('report.html')), {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-disposition': `inline; filename="${run.id}${includeSecrets ? '-with-secrets' : ''}-report.html"`,
        'content-security-policy': REPORT_CSP,
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        'x-bandit-runner-secrets': includeSecrets ? 'included' : 'redacted',
      },
    });
  })
  .all('/:id/report.html', methodNotAllowed(['GET']))
  .post('/:id/verify', async (c) => {
    const id = c.req.param('id');
    const { run, log } = await runLogOf(await existingSession(c.env, id), id);
    if (run.config.replay)
      throw new ApiError(
        409,
        'conflict',
        `run ${run.id} is itself a verification run; verify its original, ${run.config.replay.of}`,
      );
    const solved = new SolvedLevelsFold();
    await foldLog(log, solved);
    const plan = await replayPlan(run.id, replayableLevels(solved.solved, run.config.startLevel));
    if (!plan) {
      throw new ApiError(
        409,
        'nothing_to_verify',
        `run ${run.id} has no level solved by its own commands from level ${run.config.startLevel} on; verify a run that solved at least one`,
      );
    }
    const longest = Math.max(...plan.levels.map((l) => l.commands.length));
    const config = runConfigSchema.parse({
      target: run.config.target,
      startLevel: plan.levels[0]!.level,
      endLevel: plan.levels.at(-1)!.level,
      model: REPLAY_MODEL,
      maxRetries: 1,
      budget: Math.min(100, longest + VERIFY_EXTRA_STEPS),
      replay: plan,
      // On the practice range a verification re-plays the commands in a fresh world of its own, as the world was
      // laid out: it proves they solve the levels alone, not with what the original or anyone else left behind.
      world: run.config.target === 'practice' ? 'private' : 'shared',
    });
    await takeCreations(c, 1);
    const { run: created } = await launchRun(c.env, config, null);
    await sessionFor(c.env, run.id).addVerification(created.id);
    return c.json(created, 201);
  })
  .all('/:id/verify', methodNotAllowed(['POST']))
  .get('/:id/verification', async (c) => {
    const id = c.req.param('id');
    const { run, verifications, log } = await runLogOf(await existingSession(c.env, id), id);
    return c.json({ report: await verdictsOf(run, log), verifiedBy: await reportsOf(c.env, verifications) });
  })
  .all('/:id/verification', methodNotAllowed(['GET']));
