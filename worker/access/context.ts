// What the access check leaves on each request's Hono context (`c.get('access')`), so a route can
// read who is asking, and the header that carries it to a run's Durable Object for a socket.
import { z } from 'zod';
import type { Role } from '../../schema/access.ts';
import { roleSchema } from '../../schema/access.ts';

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
 * Who opened a socket (JSON of SocketAccess), set by the worker on the upgrade it forwards to the
 * run's object (any client-sent value is replaced), and kept in the socket's attachment.
 */
export const ACCESS_HEADER = 'X-Bandit-Runner-Access';

/** What a socket keeps of its opener: the role, and for a stored token its id and expiry. */
export const socketAccessSchema = z.object({
  role: roleSchema,
  tokenId: z.string().optional(),
  expiresAt: z.number().nullable().optional(),
});
export type SocketAccess = z.infer<typeof socketAccessSchema>;

/** The header's value for a request's access. */
export function accessHeader(access: RequestAccess): string {
  const { role, tokenId, expiresAt } = access;
  return JSON.stringify({ role, tokenId, expiresAt } satisfies SocketAccess);
}

/** The opener's access from the header; a socket reached without a valid one is a viewer's (read-only). */
export function socketAccess(header: string | null): SocketAccess {
  let json: unknown = null;
  try {
    json = JSON.parse(header ?? 'null');
  } catch {
    // Not JSON: read-only, below.
  }
  const parsed = socketAccessSchema.safeParse(json);
  return parsed.success ? parsed.data : { role: 'viewer' };
}
