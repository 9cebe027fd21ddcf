// Moves ?token= from the address bar into this tab's session storage. It runs as an inline script in
// the page head, before anything renders or loads, so the token never stays in the address bar,
// history or a Referer; apiToken() runs it again (it is idempotent) for safety.

/** The session-storage key the API token is kept under. */
export const TOKEN_KEY = 'bandit-runner.api-token';

/** Self-contained (it is also inlined as text): no imports or outer names are used inside. */
export function handOffToken(): void {
  const url = new URL(window.location.href);
  const given = url.searchParams.get('token');
  if (given === null) return;
  if (given) window.sessionStorage.setItem('bandit-runner.api-token', given);
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
