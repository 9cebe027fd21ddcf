// Who may use the API. With API_TOKEN set, every route but /api/health needs it: as a bearer
// header, or, for browsers, as ?token= or a WebSocket subprotocol "token.<value>". Without it the
// worker serves loopback clients only (local development) and says so in a header.
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The token the request carries, from any of the three places a client can put it. */
function presented(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  const query = new URL(request.url).searchParams.get('token');
  if (query) return query;
  const protocols = request.headers.get('sec-websocket-protocol')?.split(',').map((p) => p.trim()) ?? [];
  const carried = protocols.find((p) => p.startsWith('token.'));
  return carried ? carried.slice('token.'.length) : null;
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from timings. */
function same(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

export const requireAccess: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const token = (c.env as { API_TOKEN?: string }).API_TOKEN;
  if (token) {
    const given = presented(c.req.raw);
    if (!given || !same(given, token)) {
      throw new ApiError(401, 'unauthorized', 'send Authorization: Bearer <API_TOKEN> (browsers: ?token=<API_TOKEN>)');
    }
    return next();
  }
  // Cloudflare always sets CF-Connecting-IP; only a local runtime (wrangler dev, tests) lacks it.
  const ip = c.req.header('cf-connecting-ip');
  if (ip && !LOOPBACK.has(ip)) {
    throw new ApiError(403, 'loopback_only', 'API_TOKEN is not set, so only loopback clients are served; set it with `wrangler secret put API_TOKEN`');
  }
  c.header('X-Bandit-Runner-Auth', 'none: loopback only (set API_TOKEN to require a token)');
  return next();
};
