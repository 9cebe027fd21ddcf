// Who a request is: API_TOKEN is admin; a stored token (role or share link) is looked up by its hash
// in D1; without API_TOKEN, a request from this machine that presents no token is admin. Never throws:
// a refusal is an ApiError to answer with, and a D1 failure is a 503, never a way in.
import { TOKEN_SUBPROTOCOL_PREFIX } from '../../schema/protocol.ts';
import type { Role } from '../../schema/access.ts';
import { isLoopbackHost, readAccessSettings } from '../env.ts';
import { errorText } from '../error-text.ts';
import { ApiError } from '../errors.ts';
import type { RequestAccess } from './context.ts';
import { findToken, looksStored } from './token-store.ts';

/** Who is asking, or why they may not. */
export type Access = { ok: true; access: RequestAccess } | { ok: false; error: ApiError };

const LOOPBACK_IPS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The token a request carries: a bearer header (any case of "Bearer"), or a subprotocol on a WebSocket upgrade. */
export function presentedToken(request: Request): string | null {
  const header = /^bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (header) return header[1]!;
  // Browsers cannot set headers on a WebSocket; everything else must use the Authorization header.
  if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return null;
  const protocols =
    request.headers
      .get('sec-websocket-protocol')
      ?.split(',')
      .map((p) => p.trim()) ?? [];
  const carried = protocols.find((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX));
  return carried ? carried.slice(TOKEN_SUBPROTOCOL_PREFIX.length) : null;
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from timings. */
function same(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

const refuse = (status: 401 | 403 | 503, code: string, message: string): Access => ({
  ok: false,
  error: new ApiError(status, code, message),
});

const NO_TOKEN = 'send Authorization: Bearer <API_TOKEN> (browsers: open the UI once as /?token=<API_TOKEN>)';

/** A stored token's access: unknown, revoked and expired tokens are 401s that say which. */
async function storedAccess(env: Env, token: string): Promise<Access> {
  if (!looksStored(token)) return refuse(401, 'unauthorized', `the token is not valid; ${NO_TOKEN}`);
  let row: Awaited<ReturnType<typeof findToken>>;
  try {
    row = await findToken(env, token);
  } catch (err) {
    return refuse(
      503,
      'd1_unavailable',
      `the token could not be checked (D1 did not answer: ${errorText(err)}); try again`,
    );
  }
  if (!row)
    return refuse(401, 'unauthorized', `the token is unknown (never made, or made on another server); ${NO_TOKEN}`);
  if (row.revokedAt !== null)
    return refuse(401, 'token_revoked', 'the token was revoked; ask whoever gave it to you for a new one');
  if (row.expiresAt !== null && row.expiresAt <= Date.now())
    return refuse(
      401,
      'token_expired',
      `the token expired at ${new Date(row.expiresAt).toISOString()}; ask for a new one`,
    );
  const access: RequestAccess = { role: row.role as Role, via: 'token', tokenId: row.id, expiresAt: row.expiresAt };
  if (row.runId !== null) access.runId = row.runId;
  return { ok: true, access };
}

/** Decides who a request is; never throws. */
export async function resolveAccess(request: Request, env: Env): Promise<Access> {
  const settings = readAccessSettings(env);
  if (!settings.ok) return refuse(503, 'misconfigured', settings.message);
  const given = presentedToken(request);
  const apiToken = settings.apiToken;
  if (apiToken) {
    if (!given) return refuse(401, 'unauthorized', NO_TOKEN);
    if (same(given, apiToken)) return { ok: true, access: { role: 'admin', via: 'api_token' } };
    return storedAccess(env, given);
  }
  const local = fromThisMachine(request);
  if (!local.ok) return local;
  // A stored token presented here is judged by itself, so a share link behaves the same locally; any
  // other string is ignored, as it always was without API_TOKEN.
  return given && looksStored(given) ? storedAccess(env, given) : local;
}

/**
 * Without API_TOKEN (local use) the request must come from this machine, name it in Host, and not
 * come from another site's page; a request that came through Cloudflare's edge is never from this machine.
 */
function fromThisMachine(request: Request): Access {
  const unset = 'API_TOKEN is not set, so';
  const setIt = 'set API_TOKEN (`wrangler secret put API_TOKEN`) to serve other clients';
  // Cloudflare's edge marks every request it forwards with CF-Ray and sets CF-Connecting-IP itself,
  // so such a request is from another machine. Locally (wrangler dev) the header is the socket's
  // address only when the client sent none: a claim, believed only when it says "not this machine".
  // What keeps other machines out locally is the listening address (npm start binds 127.0.0.1).
  if (request.headers.has('cf-ray'))
    return refuse(403, 'loopback_only', `${unset} a worker reached through Cloudflare serves no one; ${setIt}`);
  const ip = request.headers.get('cf-connecting-ip');
  if (ip && !LOOPBACK_IPS.has(ip))
    return refuse(403, 'loopback_only', `${unset} only clients on this machine are served; ${setIt}`);
  // Host must name this machine: a page on a rebound DNS name (evil.example → 127.0.0.1) carries its own name.
  const url = new URL(request.url);
  const host = request.headers.get('host') ?? url.host;
  const hostname = new URL(`http://${host}`).hostname;
  if (!isLoopbackHost(hostname)) {
    return refuse(
      403,
      'host_not_loopback',
      `${unset} the Host must be 127.0.0.1, [::1] or localhost with the worker's port, not "${host.slice(0, 100)}"; open the UI at http://127.0.0.1:<port>, or ${setIt}`,
    );
  }
  // A page on another site may send requests here, but its browser names it in Origin.
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== `${url.protocol}//${host}`) {
    return refuse(
      403,
      'cross_origin',
      `${unset} requests from other sites' pages are refused (Origin "${origin.slice(0, 100)}" is not ${url.protocol}//${host}); ${setIt}`,
    );
  }
  // A cross-site form can POST text/plain without a preflight; it cannot send application/json.
  if (
    !SAFE_METHODS.has(request.method) &&
    !/^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')
  ) {
    return refuse(
      403,
      'json_required',
      `${unset} a ${request.method} must be sent with Content-Type: application/json`,
    );
  }
  return { ok: true, access: { role: 'admin', via: 'loopback' } };
}
