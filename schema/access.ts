// Who may do what: the roles, the rule that gives each request the role it needs, the routes a share
// link may read, and the shapes of tokens and share links. The one owner: the worker enforces it, the
// web app and the CLI read it to know what to show.
import { z } from 'zod';
import { runIdSchema } from './run.ts';

/** Every role a request can have, weakest first. `share` is a read-only view of one run. */
export const ROLES = ['share', 'viewer', 'operator', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** The roles a token made with POST /api/tokens may carry (a share link is made per run). */
export const grantableRoleSchema = z.enum(['admin', 'operator', 'viewer'], {
  error: 'must be "admin", "operator" or "viewer" (a share link is made with POST /api/runs/:id/shares)',
});
export type GrantableRole = z.infer<typeof grantableRoleSchema>;

/** Whether `role` is at least `needed` (share < viewer < operator < admin). */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** Whether a role may act on runs (pause, stop, answer, message, take the terminal, fork, share). */
export function canAct(role: Role): boolean {
  return roleAtLeast(role, 'operator');
}

/** A role token's prefix and a share token's: a leaked token says what it is at a glance. */
export const TOKEN_PREFIX = { role: 'brt_', share: 'brs_' } as const;

/** Random bytes in every token (base64url after the prefix). */
export const TOKEN_BYTES = 32;

/** The fragment key of a share link (`/run?id=…#share=<token>`): browsers send no fragment, not even in a Referer. */
export const SHARE_FRAGMENT_KEY = 'share';

/** The page a share link opens: the token rides in the fragment, never in the path or the query. */
export function shareUrl(origin: string, runId: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/run?id=${encodeURIComponent(runId)}#${SHARE_FRAGMENT_KEY}=${token}`;
}

/** Routes only an admin may use, as path prefixes: token management. */
export const ADMIN_PATHS: readonly string[] = ['/api/tokens'];

/**
 * What a share link may read under /api/runs/<its run>, as suffixes of that path (GET and HEAD only).
 * Everything else, every other run and every write, is refused.
 */
export const SHARE_RUN_ROUTES: readonly string[] = [
  '',
  '/events',
  '/ws',
  '/timeline',
  '/diagnosis',
  '/llm-calls/:callId',
  '/artifacts',
  '/terminal.cast',
  '/verification',
  '/report.html',
  '/forks',
];

/** Paths a share link may read whatever its run: who am I. */
export const SHARE_OTHER_ROUTES: readonly string[] = ['/api/access'];

const shareSuffix = new RegExp(
  `^(?:${SHARE_RUN_ROUTES.map((s) => s.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')).join('|')})$`,
);

/** Whether a share link for `runId` may make this request. `path` has no trailing slash; `secrets` is the query's. */
export function shareMay(req: { method: string; path: string; secrets: string | null }, runId: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.secrets !== null && req.secrets !== 'redacted') return false;
  if (SHARE_OTHER_ROUTES.includes(req.path)) return true;
  const prefix = `/api/runs/${runId}`;
  return req.path.startsWith(prefix) && shareSuffix.test(req.path.slice(prefix.length));
}

/**
 * The weakest role a request needs, for roles other than share: token management is admin's, a
 * secrets-included archive or cast is operator's, any other read is viewer's, any write operator's.
 */
export function neededRole(req: { method: string; path: string; secrets: string | null }): Exclude<Role, 'share'> {
  if (ADMIN_PATHS.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return 'admin';
  if (req.method !== 'GET' && req.method !== 'HEAD') return 'operator';
  if (req.secrets === 'include') return 'operator';
  return 'viewer';
}

const expiresInSeconds = z
  .number({ error: 'must be a number of seconds' })
  .int('must be a whole number of seconds')
  .min(60, 'must be at least 60 seconds')
  .max(366 * 86_400, 'must be at most a year (31622400 seconds); omit it for a link that never expires')
  .optional();
const label = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional();

/** POST /api/tokens. */
export const createTokenBodySchema = z.strictObject({ role: grantableRoleSchema, label, expiresInSeconds });
export type CreateTokenBody = z.infer<typeof createTokenBodySchema>;

/** POST /api/runs/:id/shares. */
export const createShareBodySchema = z.strictObject({ label, expiresInSeconds });
export type CreateShareBody = z.infer<typeof createShareBodySchema>;

const isoOrNull = z.string().nullable();

/** A token as listed: never its text nor its hash. */
export const tokenInfoSchema = z.object({
  id: z.string(),
  role: roleSchema,
  runId: runIdSchema.nullable(),
  label: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: isoOrNull,
  revokedAt: isoOrNull,
});
export type TokenInfo = z.infer<typeof tokenInfoSchema>;

/** 201 of POST /api/tokens: the token's text, shown this once. */
export const createdTokenSchema = z.object({
  id: z.string(),
  token: z.string(),
  role: grantableRoleSchema,
  label: z.string().nullable(),
  expiresAt: isoOrNull,
});
export type CreatedToken = z.infer<typeof createdTokenSchema>;

/** 201 of POST /api/runs/:id/shares: the link (token in its fragment) and the token, shown this once. */
export const createdShareSchema = z.object({
  id: z.string(),
  url: z.string(),
  token: z.string(),
  label: z.string().nullable(),
  expiresAt: isoOrNull,
});
export type CreatedShare = z.infer<typeof createdShareSchema>;

export const tokenListSchema = z.object({ tokens: z.array(tokenInfoSchema) });
export const shareListSchema = z.object({ shares: z.array(tokenInfoSchema) });
export type TokenList = z.infer<typeof tokenListSchema>;
export type ShareList = z.infer<typeof shareListSchema>;

/** GET /api/access: who the caller is, so a client shows only what it may use. */
export const accessInfoSchema = z.object({
  role: roleSchema,
  /** How access was given: API_TOKEN, a stored token, or this machine without a token. */
  via: z.enum(['api_token', 'token', 'loopback']),
  /** The one run a share link opens. */
  runId: runIdSchema.optional(),
  expiresAt: isoOrNull.optional(),
});
export type AccessInfo = z.infer<typeof accessInfoSchema>;
