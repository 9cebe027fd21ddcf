// A run's four timestamps, stored as epoch ms (DO SQLite and D1 alike), as the API's ISO strings.
type Ms = number | null;

export function runTimes(created: number, updated: number, started: Ms, ended: Ms) {
  const iso = (ms: Ms) => (ms === null ? null : new Date(ms).toISOString());
  return {
    createdAt: new Date(created).toISOString(),
    updatedAt: new Date(updated).toISOString(),
    startedAt: iso(started),
    endedAt: iso(ended),
  };
}
