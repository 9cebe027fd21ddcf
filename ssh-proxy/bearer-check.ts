// The proxy's one check of the shared secret, for HTTP routes and the terminal relay's upgrade alike:
// `Authorization: Bearer <PROXY_SECRET>`, compared in constant time.
import { timingSafeEqual } from 'node:crypto';

/** A test of an Authorization header against the secret the worker and proxy share. */
export function bearerCheck(secret: string): (header: string | undefined) => boolean {
  const expected = Buffer.from(`Bearer ${secret}`);
  return (header) => {
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}
