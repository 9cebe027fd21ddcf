// Who answered a paused run, named as a person recognises it ("the CLI"), not by the transport it
// came over ("rest"). The web UI and the CLI say which they are in one header; a request without it
// is "an API client". Logs written before this still hold the old names; `answererText` reads them.
import { z } from 'zod';

/** The request header a first-party client names itself in. */
export const CLIENT_HEADER = 'x-bandit-client';

/** What the web UI and the CLI send in CLIENT_HEADER. */
export const clientKindSchema = z.enum(['web', 'cli']);
export type ClientKind = z.infer<typeof clientKindSchema>;

/** The `by` of a `user_action_resolved`, for each way an answer arrives. */
export const ANSWERED_BY = {
  web: 'the web UI',
  cli: 'the CLI',
  api: 'an API client',
} as const;

/** The `by` for an answer whose request carried `header` in CLIENT_HEADER (absent or unknown: an API client). */
export function answeredBy(header: string | null | undefined): string {
  const kind = clientKindSchema.safeParse(header?.trim().toLowerCase());
  return kind.success ? ANSWERED_BY[kind.data] : ANSWERED_BY.api;
}

const LEGACY: Readonly<Record<string, string>> = {
  rest: ANSWERED_BY.api,
  socket: ANSWERED_BY.api,
  // A hands-off run (onPause "stop") answers its own pause; the stored name stays, as docs/providers.md says.
  onPause: 'the run itself (onPause "stop")',
};

/** A stored `by` as a person reads it: old transport names become what they meant; the rest stays. */
export function answererText(by: string): string {
  return LEGACY[by] ?? by;
}
