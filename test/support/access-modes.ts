// The two ways a stack serves its API, for tests that must hold in both: only this machine's own
// clients (API_TOKEN unset), or anyone with the token (API_TOKEN set).
/** One access mode: its name, the environment that selects it, and the token a client must send. */
export type AccessMode = { name: string; env: Record<string, string>; token: string | null };

/** A token only the tests know; a hostile page that read it would have found a secret. */
export const TEST_API_TOKEN = 'e2e-port-fence-token-5f0c2a9e7d41';

export const ACCESS_MODES: AccessMode[] = [
  { name: 'API_TOKEN unset', env: {}, token: null },
  { name: 'API_TOKEN set', env: { API_TOKEN: TEST_API_TOKEN }, token: TEST_API_TOKEN },
];
