// Who may use the API. Deny by default: the middleware sits on /api/*, and only the routes in
// PUBLIC_ROUTES answer without access. With API_TOKEN set, access is `Authorization: Bearer <token>`
// (browsers send the token as a WebSocket subprotocol `token.<value>`, read on an upgrade only).
// Without it (local use), the request must come from this machine, name it in Host, and not come
// from another site's page; a request that came through Cloudflare's edge is never from this machine.
import type { MiddlewareHandler } from 'hono';
import { isLoopbackHost, readAccessSettings } from './env.ts';
import { ApiError } from './errors.ts';
import { TOKEN_SUBPROTOCOL_PREFIX } from '../schema/protocol.ts';

/** The only routes served without access, as "METHOD /path". Everything else under /api needs it. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set(['GET /api/health', 'HEAD /api/health']);

/** What a request may do: everything, or nothing and why. */
export type Access = { ok: true; mode: 'token' | 'loopback' } | { ok: false; error: ApiError };

const LOOPBACK_IPS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The token a request carries: a bearer header (any case of "Bearer"), or a subprotocol on a WebSocket upgrade. */
function presented(request: Request): string | null {
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

/** Decides access for one request; never throws. */
export function checkAccess(request: Request, env: Env): Access {
  const settings = readAccessSettings(env);
  if (!settings.ok) return refuse(503, 'misconfigured', settings.message);
  const token = settings.apiToken;
  if (token) {
    const given = presented(request);
    if (!given || !same(given, token)) {
      return refuse(
        401,
        'unauthorized',
        'send Authorization: Bearer <API_TOKEN> (browsers: open the UI once as /?token=<API_TOKEN>)',
      );
    }
    return { ok: true, mode: 'token' };
  }
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
  return { ok: true, mode: 'loopback' };
}

/**
 * Who is asking, for per-client limits: with API_TOKEN every holder of the token is one client;
 * without it every client is on this machine, keyed by its loopback address (the only ones served).
 */
export function clientKey(request: Request, env: Env): string {
  const settings = readAccessSettings(env);
  if (settings.ok && settings.apiToken) return 'token';
  return `loopback:${request.headers.get('cf-connecting-ip') ?? 'local'}`;
}

/** Mounted on /api/*: refuses every request without access, unless its route is public. */
export const requireAccess: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  if (PUBLIC_ROUTES.has(`${c.req.method} ${c.req.path.replace(/\/+$/, '')}`)) return next();
  const access = checkAccess(c.req.raw, c.env);
  if (!access.ok) throw access.error;
  if (access.mode === 'loopback')
    c.header('X-Bandit-Runner-Auth', 'none: this machine only (set API_TOKEN to require a token)');
  return next();
};
