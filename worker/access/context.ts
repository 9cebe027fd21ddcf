// What the access check leaves on each request's Hono context (`c.get('access')`), so a route can
// read who is asking, and the header that carries the role to a run's Durable Object.
import type { Role } from '../../schema/access.ts';

/** Who is asking: their role, how they were let in, and for a share link its run and token id. */
export type RequestAccess = {
  role: Role;
  via: 'api_token' | 'token' | 'loopback';
  /** The stored token's id (a role token or a share link). */
  tokenId?: string;
  /** The one run a share link opens. */
  runId?: string;
  /** When the stored token stops working (ms since epoch). */
  expiresAt?: number | null;
};

declare module 'hono' {
  interface ContextVariableMap {
    access: RequestAccess;
  }
}

/**
 * The role of a socket's opener, set by the worker on the upgrade it forwards to the run's object
 * (any client-sent value is replaced), and kept in the socket's attachment.
 */
export const ROLE_HEADER = 'X-Bandit-Runner-Role';
