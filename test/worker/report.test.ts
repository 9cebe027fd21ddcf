// GET /api/runs/:id/report.html in workerd against the real proxy and range: a baseline run's report
// as an inline HTML page with a CSP that loads nothing, redacted unless asked, the same file as the
// archive's report.html, and the usual refusals (a bad query, another method, an unknown run).
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../schema/api.ts';
import { REPORT_CSP } from '../../worker/artifacts/report-markup.ts';
import { call, createRun, eventsOf, ofType, postJson, waitForStatus } from './http.ts';

/** The report without the line that says when it was made. */
const withoutDate = (html: string) => html.replace(/Made \S+Z\./, 'Made (date).');

describe('GET /api/runs/:id/report.html', () => {
  it("serves the run's report inline, redacted unless asked, the same file as the archive's", async () => {
    const run = await createRun({ model: 'baseline', endLevel: 2, maxRetries: 1 });
    await waitForStatus(run.id, 'completed', 30_000);
    const passwords = ofType(await eventsOf(run.id), 'password_found').map((e) => e.password);
    expect(passwords).toHaveLength(3);

    const response = await call(`/api/runs/${run.id}/report.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="${run.id}-report.html"`);
    expect(response.headers.get('content-security-policy')).toBe(REPORT_CSP);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-bandit-runner-secrets')).toBe('redacted');
    const html = await response.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    for (const level of [0, 1, 2]) expect(html).toContain(`<tr data-level="${level}" data-outcome="solved_alone">`);
    for (const password of passwords) expect(html).not.toContain(password);
    expect(html).toContain('[REDACTED:bandit3-password]');

    const included = await call(`/api/runs/${run.id}/report.html?secrets=include`);
    expect(included.headers.get('content-disposition')).toBe(`inline; filename="${run.id}-with-secrets-report.html"`);
    expect(included.headers.get('x-bandit-runner-secrets')).toBe('included');
    const withSecrets = await included.text();
    for (const password of passwords) expect(withSecrets).toContain(password);

    const zip = unzipSync(new Uint8Array(await (await call(`/api/runs/${run.id}/artifacts`)).arrayBuffer()));
    expect(withoutDate(new TextDecoder().decode(zip['report.html']))).toBe(withoutDate(html));
  }, 60_000);

  it('refuses a bad query, another method and an unknown run', async () => {
    const run = await createRun({ model: 'baseline', endLevel: 0, maxRetries: 1 });
    const bad = await call(`/api/runs/${run.id}/report.html?secrets=all`);
    expect(bad.status).toBe(400);
    expect(apiErrorSchema.parse(await bad.json()).error.code).toBe('invalid_query');
    const post = await postJson(`/api/runs/${run.id}/report.html`, {});
    expect(post.status).toBe(405);
    const unknown = await call('/api/runs/run_00000000000000000000000000/report.html');
    expect(unknown.status).toBe(404);
    expect(apiErrorSchema.parse(await unknown.json()).error.code).toBe('run_not_found');
  });
});
