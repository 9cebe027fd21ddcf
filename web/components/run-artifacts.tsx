'use client';
// What leaves the tool: the archive and its report.html alone (passwords redacted unless asked), a
// verification run that re-plays the solving commands without a model, and the links between a run and
// its verifications.
import { Problem } from './form-problem.tsx';
import { useEffect, useState } from 'react';
import type { RunSummary } from '../../schema/run.ts';
import type { VerificationResponse } from '../../schema/artifacts.ts';
import { downloadArtifacts, downloadReport, fetchVerification, startVerification } from '../lib/api.ts';
import { Shown } from './shown-text.tsx';

/** Another run's id: a link, except on a share link's page (it opens this run alone). */
function RunRef({ id, link }: { id: string; link: boolean }) {
  return link ? (
    <a href={`/run?id=${id}`}>
      <code>{id}</code>
    </a>
  ) : (
    <code>{id}</code>
  );
}

/** `canAct`: an operator's page, which may also take the secrets and start a verification. */
export function RunArtifacts({ run, canAct, linkRuns }: { run: RunSummary; canAct: boolean; linkRuns: boolean }) {
  const [withSecrets, setWithSecrets] = useState(false);
  const [busy, setBusy] = useState<'download' | 'report' | 'verify' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [verification, setVerification] = useState<VerificationResponse | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependency is the trigger, not a value read inside.
  useEffect(() => {
    const controller = new AbortController();
    fetchVerification(run.id, controller.signal)
      .then(setVerification)
      .catch(() => {});
    return () => controller.abort();
    // Verdicts arrive as levels end, and a verification's report is whole when its run ends.
  }, [run.id, run.status, run.levelsSolved]);

  const attempt = (kind: 'download' | 'report' | 'verify', work: () => Promise<void>) => {
    setBusy(kind);
    setProblem(null);
    work()
      .catch((err: unknown) => setProblem(err instanceof Error ? err.message : String(err)))
      .finally(() => setBusy(null));
  };
  const verify = () =>
    attempt('verify', async () => {
      const created = await startVerification(run.id);
      window.location.assign(`/run?id=${created.id}`);
    });
  const report = verification?.report ?? null;

  return (
    <section className="run-artifacts" aria-label="Artifacts">
      <div className="run-controls">
        <button
          type="button"
          onClick={() => attempt('download', () => downloadArtifacts(run.id, canAct && withSecrets))}
          disabled={busy !== null}
        >
          {busy === 'download' ? 'Preparing…' : 'Download artifacts'}
        </button>
        <button
          type="button"
          onClick={() => attempt('report', () => downloadReport(run.id, canAct && withSecrets))}
          disabled={busy !== null}
          title="The run as one HTML page that opens offline: summary, levels, timeline, transcript, terminal replay"
        >
          {busy === 'report' ? 'Preparing…' : 'Report (HTML)'}
        </button>
        {canAct && (
          <label className="muted">
            <input type="checkbox" checked={withSecrets} onChange={(e) => setWithSecrets(e.target.checked)} /> include
            passwords and keys
          </label>
        )}
        {canAct && !run.config.replay && run.levelsSolved > 0 && (
          <button
            type="button"
            onClick={verify}
            disabled={busy !== null}
            title="Re-run the commands that solved each level, with no model, and prove each password by a login"
          >
            {busy === 'verify' ? 'Starting…' : 'Verify (replay without the model)'}
          </button>
        )}
      </div>
      <Problem text={problem} />
      {run.config.replay && (
        <p className="verify-of">
          Verification of run <RunRef id={run.config.replay.of} link={linkRuns} />: it re-plays the commands that solved
          levels {run.config.replay.levels[0]?.level}–{run.config.replay.levels.at(-1)?.level} with no model.
        </p>
      )}
      {report && (
        <table className="verify-report" aria-label="Verification report">
          <thead>
            <tr>
              <th>Level</th>
              <th>Verdict</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {report.levels.map((l) => (
              <tr key={l.level} data-verdict={l.verdict}>
                <td>{l.level}</td>
                <td className={`verdict-${l.verdict}`}>{l.verdict}</td>
                <td>
                  <Shown text={l.detail} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {verification && verification.verifiedBy.length > 0 && (
        <ul className="verified-by" aria-label="Verifications of this run">
          {verification.verifiedBy.map((r) => (
            <li key={r.runId}>
              <RunRef id={r.runId} link={linkRuns} />: {r.reproduced} reproduced, {r.drifted} drifted, {r.failed} failed
              of {r.planned.length} ({r.status})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
