// One line per request to the worker (`GET /api/runs 200 (3 ms)`): the front writes them, and
// `npm start` hides them unless asked (the UI polls every 2-3 s, so they would bury everything else).

/**
 * Whether `npm start` shows access-log lines: `--access-log` or BANDIT_RUNNER_ACCESS_LOG=1. Throws on
 * any other argument, so a mistyped flag is named rather than ignored.
 */
export function accessLogWanted(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const unknown = argv.find((arg) => arg !== '--access-log');
  if (unknown !== undefined)
    throw new Error(`npm start takes one flag, --access-log (a line per request); "${unknown.slice(0, 60)}" is not it`);
  return argv.length > 0 || /^(1|true|yes)$/i.test(env.BANDIT_RUNNER_ACCESS_LOG ?? '');
}

/** A request's line. The query is left out: it may hold a token (`/?token=…`). */
export function accessLogLine(method: string, url: string, status: number, ms: number): string {
  return `${method} ${url.split('?')[0]} ${status} (${ms} ms)`;
}

// ANSI colour codes, as wrangler's own request lines carry them.
const ANSI = /\u001b\[[0-9;]*m/g;
/** This front's lines and wrangler's (`[wrangler:info] GET /api/runs 200 OK (3ms)`), below 500. */
const ACCESS = /^(?:\[wrangler:info\] )?(?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \/\S* [1-4]\d\d\b/;

/** Whether a line of the worker's output is an access-log line `npm start` may hide; a 5xx is an error and stays. */
export function isAccessLogLine(line: string): boolean {
  return ACCESS.test(line.replace(ANSI, '').trim());
}
