// Who may use the API. Deny by default: the middleware sits on /api/*, and only the routes in
// PUBLIC_ROUTES answer without access. access/resolve-access.ts says who a request is (a role);
// schema/access.ts says which role a route needs and what a share link may read.
import type { MiddlewareHandler } from 'hono';
import type { Role } from '../schema/access.ts';
import { canAct, neededRole, roleAtLeast, shareMay, SHARE_RUN_ROUTES } from '../schema/access.ts';
import { redactedJsonText } from './access/reader-redaction.ts';
import { readAccessSettings } from './env.ts';
import { ApiError } from './errors.ts';
import type { RequestAccess } from './access/context.ts';
import type { Access } from './access/resolve-access.ts';
import { resolveAccess } from './access/resolve-access.ts';

export type { Access };

/** The only routes served without access, as "METHOD /path". Everything else under /api needs it. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set(['GET /api/health', 'HEAD /api/health']);

/** Decides who a request is; never throws (kept under this name for health's reasons). */
export const checkAccess = resolveAccess;

/**
 * Who is asking, for per-client limits: a stored token is its own client; with API_TOKEN every holder
 * of that token is one client; without it every client is on this machine, keyed by its loopback address.
 */
export function clientKey(request: Request, env: Env, access?: RequestAccess): string {
  if (access?.tokenId) return `token:${access.tokenId}`;
  const settings = readAccessSettings(env);
  if (settings.ok && settings.apiToken) return 'token';
  return `loopback:${request.headers.get('cf-connecting-ip') ?? 'local'}`;
}

const SHARE_READS = SHARE_RUN_ROUTES.filter(Boolean).join(', ');
const SHARE_MAY = `a share link may only read its own run (GET /api/runs/<its id> and its ${SHARE_READS}) and GET /api/access`;

/** Why a role may not make this request, or null when it may. */
export function refusal(
  access: { role: Role; runId?: string },
  req: { method: string; path: string; secrets: string | null },
): ApiError | null {
  if (access.role === 'share') {
    if (access.runId !== undefined && shareMay(req, access.runId)) return null;
    const detail = req.secrets === 'include' ? ', redacted only' : '';
    return new ApiError(403, 'forbidden', `${SHARE_MAY}${detail}; ${req.method} ${req.path} needs a token with a role`);
  }
  const needed = neededRole(req);
  if (roleAtLeast(access.role, needed)) return null;
  return new ApiError(
    403,
    'forbidden',
    `${req.method} ${req.path}${req.secrets === 'include' ? '?secrets=include' : ''} needs the ${needed} role; this token is ${access.role}`,
  );
}

/** Mounted on /api/*: refuses every request without access or without the role its route needs. */
export const requireAccess: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const path = c.req.path.replace(/\/+$/, '') || '/';
  if (PUBLIC_ROUTES.has(`${c.req.method} ${path}`)) return next();
  const access = await resolveAccess(c.req.raw, c.env);
  if (!access.ok) throw access.error;
  const refused = refusal(access.access, { method: c.req.method, path, secrets: c.req.query('secrets') ?? null });
  if (refused) throw refused;
  c.set('access', access.access);
  if (access.access.via === 'loopback')
    c.header('X-Bandit-Runner-Auth', 'none: this machine only (set API_TOKEN to require a token)');
  await next();
  // A reader who may not act sees no password-shaped word or private key in any JSON answer (docs/protocol.md).
  if (!canAct(access.access.role) && c.res.headers.get('content-type')?.startsWith('application/json')) {
    const redacted = redactedJsonText(await c.res.text());
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    c.res = new Response(redacted, { status: c.res.status, statusText: c.res.statusText, headers });
  }
};
