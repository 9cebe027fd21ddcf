// Moves ?token= (an API or role token) or a share link's #share= (schema/access.ts) from the address
// bar into this tab's session storage. It runs as an inline script in the page head, before anything
// renders or loads, so the token never stays in the address bar, history or a Referer; apiToken() runs
// it again (it is idempotent) for safety. A share token rides in the fragment, which no browser sends.

/** The session-storage key the API token (or a share link's token) is kept under. */
export const TOKEN_KEY = 'bandit-runner.api-token';

/** Self-contained (it is also inlined as text): no imports or outer names are used inside. */
export function handOffToken(): void {
  const url = new URL(window.location.href);
  const given = url.searchParams.get('token');
  const share = /^#share=([A-Za-z0-9_-]+)$/.exec(url.hash)?.[1] ?? null;
  if (given === null && share === null) return;
  const token = share ?? given;
  if (token) window.sessionStorage.setItem('bandit-runner.api-token', token);
  url.searchParams.delete('token');
  if (share !== null) url.hash = '';
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
