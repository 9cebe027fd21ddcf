// Tokens and share links in D1's access_tokens: made here with their text shown once, stored only as
// the hex SHA-256 of that text, listed without it, revoked by stamping revoked_at. Never logs a token.
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Role } from '../../schema/access.ts';
import { TOKEN_BYTES, TOKEN_PREFIX } from '../../schema/access.ts';
import type { TokenInfo } from '../../schema/access.ts';
import { accessTokens } from '../../schema/db.ts';
import { database } from '../db.ts';

/** A stored token's row, as the access check reads it. */
export type TokenRow = typeof accessTokens.$inferSelect;

/** Hex SHA-256 of a token's text: all D1 ever holds of it. */
export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Whether a presented string looks like one of our stored tokens (anything else is not looked up). */
export function looksStored(token: string): boolean {
  return /^(brt|brs)_[A-Za-z0-9_-]{40,60}$/.test(token);
}

/** Makes, stores and returns a token; its text is never stored and cannot be read back. */
export async function mintToken(
  env: Env,
  grant: { role: Role; runId: string | null; label: string | null; expiresInSeconds?: number | undefined },
): Promise<{ row: TokenRow; token: string }> {
  const kind = grant.role === 'share' ? 'share' : 'role';
  const token = `${TOKEN_PREFIX[kind]}${base64url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)))}`;
  const now = Date.now();
  const row: TokenRow = {
    id: `${kind === 'share' ? 'shr' : 'tok'}_${base64url(crypto.getRandomValues(new Uint8Array(12)))}`,
    role: grant.role,
    runId: grant.runId,
    label: grant.label,
    hash: await hashToken(token),
    createdAt: now,
    expiresAt: grant.expiresInSeconds === undefined ? null : now + grant.expiresInSeconds * 1000,
    revokedAt: null,
  };
  await database(env).insert(accessTokens).values(row);
  return { row, token };
}

/** The stored row of a presented token, or undefined; throws when D1 does not answer. */
export async function findToken(env: Env, token: string): Promise<TokenRow | undefined> {
  const [row] = await database(env)
    .select()
    .from(accessTokens)
    .where(eq(accessTokens.hash, await hashToken(token)));
  return row;
}

/** Role tokens (runId null) or one run's share links, newest first. */
export async function listTokens(env: Env, runId: string | null): Promise<TokenRow[]> {
  return database(env)
    .select()
    .from(accessTokens)
    .where(runId === null ? isNull(accessTokens.runId) : eq(accessTokens.runId, runId))
    .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id));
}

/**
 * Revokes a token (a share link of `runId` when given, a role token otherwise) and returns its row;
 * undefined when there is none such. Revoking twice keeps the first time.
 */
export async function revokeToken(env: Env, id: string, runId: string | null): Promise<TokenRow | undefined> {
  const db = database(env);
  const owner = runId === null ? isNull(accessTokens.runId) : eq(accessTokens.runId, runId);
  const [row] = await db
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.id, id), owner));
  if (!row) return undefined;
  if (row.revokedAt !== null) return row;
  const revokedAt = Date.now();
  await db
    .update(accessTokens)
    .set({ revokedAt })
    .where(and(eq(accessTokens.id, id), isNull(accessTokens.revokedAt)));
  return { ...row, revokedAt };
}

/** Milliseconds since the epoch as an ISO date, or null. */
export const isoTime = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A row as the API lists it: no text, no hash. */
export function tokenInfo(row: TokenRow): TokenInfo {
  return {
    id: row.id,
    role: row.role as Role,
    runId: row.runId,
    label: row.label,
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: isoTime(row.expiresAt),
    revokedAt: isoTime(row.revokedAt),
  };
}
