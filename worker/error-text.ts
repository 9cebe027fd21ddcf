// One line for any thrown value, with its causes: drizzle wraps D1's own message in `cause`.

/** The message of an error and of its causes. */
export function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e !== undefined && parts.length < 4; e = e instanceof Error ? e.cause : undefined) {
    parts.push(e instanceof Error ? e.message : String(e));
  }
  return parts.join(': ');
}
