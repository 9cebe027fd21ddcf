// The access rule alone (schema/access.ts): what a share link may read, the role each request needs,
// and the link's shape, checked on the cases a careless rule would get wrong.
import { describe, expect, it } from 'vitest';
import { canAct, neededRole, roleAtLeast, shareMay, shareUrl } from '../../schema/access.ts';

const A = 'run_0mwvk8plqukix1pplcd9725m0';
const get = (path: string, secrets: string | null = null) => ({ method: 'GET', path, secrets });

describe('a share link', () => {
  it('reads its own run through the allowlist only', () => {
    for (const suffix of ['', '/events', '/ws', '/timeline', '/diagnosis', '/llm-calls/llm_1', '/artifacts'])
      expect(shareMay(get(`/api/runs/${A}${suffix}`), A), suffix).toBe(true);
    expect(shareMay({ method: 'HEAD', path: `/api/runs/${A}/terminal.cast`, secrets: null }, A)).toBe(true);
    expect(shareMay(get('/api/access'), A)).toBe(true);
    for (const path of [
      '/api/runs',
      `/api/runs/${A}/shares`,
      `/api/runs/${A}/llm-calls`,
      `/api/runs/${A}/llm-calls/a/b`,
      `/api/runs/${A}0/events`,
      `/api/runs/${A}/terminal-cast`,
      '/api/runs/run_other0000000000000000/events',
      '/api/board',
      '/api/analytics/summary',
      '/api/tokens',
    ])
      expect(shareMay(get(path), A), path).toBe(false);
  });

  it('never writes and never takes the secrets', () => {
    expect(shareMay({ method: 'POST', path: `/api/runs/${A}/actions`, secrets: null }, A)).toBe(false);
    expect(shareMay({ method: 'POST', path: `/api/runs/${A}`, secrets: null }, A)).toBe(false);
    expect(shareMay(get(`/api/runs/${A}/artifacts`, 'include'), A)).toBe(false);
    expect(shareMay(get(`/api/runs/${A}/artifacts`, 'redacted'), A)).toBe(true);
  });

  it('carries its token in the fragment of the run page', () => {
    expect(shareUrl('https://runner.example/', A, 'brs_abc')).toBe(`https://runner.example/run?id=${A}#share=brs_abc`);
  });
});

describe('the role a request needs', () => {
  it('is viewer to read, operator to write or take the secrets, admin for tokens', () => {
    expect(neededRole(get('/api/runs'))).toBe('viewer');
    expect(neededRole(get(`/api/runs/${A}/artifacts`, 'include'))).toBe('operator');
    expect(neededRole({ method: 'POST', path: '/api/forecast', secrets: null })).toBe('operator');
    expect(neededRole({ method: 'DELETE', path: `/api/runs/${A}/shares/shr_1`, secrets: null })).toBe('operator');
    expect(neededRole(get('/api/tokens'))).toBe('admin');
    expect(neededRole({ method: 'DELETE', path: '/api/tokens/tok_1', secrets: null })).toBe('admin');
    expect(neededRole(get('/api/tokensmith'))).toBe('viewer');
  });

  it('orders the roles share < viewer < operator < admin, and only operators and admins act', () => {
    expect(roleAtLeast('admin', 'operator')).toBe(true);
    expect(roleAtLeast('viewer', 'operator')).toBe(false);
    expect(roleAtLeast('share', 'viewer')).toBe(false);
    expect([canAct('share'), canAct('viewer'), canAct('operator'), canAct('admin')]).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
