// The shared terminal of issue 30: a person takes the run's shell (a PTY over the run's SSH login, as
// the level's user) and drives it from a browser or the CLI. One owner for its wire shapes: the
// events it stores, the socket messages of clients, and the Durable Object ⇄ proxy relay.
import { z } from 'zod';
import { worldKeySchema } from './worlds.ts';

/** Bytes of terminal output travel as base64: a chunk may end inside a UTF-8 character. */
export const terminalBytesSchema = z.string().max(128 * 1024);

/** Most characters of keystrokes one `terminal_input` message carries (a paste is cut by the client). */
export const MAX_TERMINAL_INPUT_CHARS = 4096;

/** A terminal's size in character cells, as xterm.js and a real tty report it. */
export const terminalSizeSchema = z.strictObject({
  cols: z.number().int().min(10).max(500),
  rows: z.number().int().min(4).max(200),
});
export type TerminalSize = z.infer<typeof terminalSizeSchema>;

/** The size a terminal opens at when the person's client gave none. */
export const DEFAULT_TERMINAL_SIZE: TerminalSize = { cols: 80, rows: 24 };

/** Why a terminal closed. */
export const terminalEndReasonSchema = z.enum([
  /** The person handed it back (or a human run's level was proven and the next one opens). */
  'handback',
  /** Nobody typed for TERMINAL_IDLE_MS. */
  'idle',
  /** The stack restarted while it was open; the run stays paused. */
  'restart',
  /** The run was stopped. */
  'stopped',
  /** The shell ended (`exit`), the SSH login or the proxy went away. */
  'closed',
  /** A human run's level was proven by a login; the terminal reopens at the next level. */
  'solved',
]);
export type TerminalEndReason = z.infer<typeof terminalEndReasonSchema>;

/** Fields of the terminal's stored events, spread into the protocol's event union (schema/protocol.ts). */
export const terminalEventShapes = {
  /** A person holds the terminal from now on, logged in as the level's user. */
  takeover_started: { by: z.string().min(1), cols: z.number().int(), rows: z.number().int() },
  /**
   * Output of the held terminal, the real bytes (base64), stored and sent to every socket as it comes:
   * the one way bytes reach clients, live and in a replay alike (no separate live message: a client
   * dedupes by seq as for every event). Keystrokes are never stored.
   */
  terminal_output: {
    data: terminalBytesSchema,
    /** The holder's new size, from this chunk on (a resize is stored with the output that follows it). */
    cols: z.number().int().optional(),
    rows: z.number().int().optional(),
  },
  /** The terminal closed; `proved` names a level whose password the person's session proved. */
  takeover_ended: {
    by: z.string().min(1),
    reason: terminalEndReasonSchema,
    durationMs: z.number().int().min(0),
    message: z.string().optional(),
    provedLevel: z.number().int().min(0).optional(),
    /** Lines the person entered (Enter presses), counted as the level's commands; their text is not kept. */
    commands: z.number().int().min(0).optional(),
  },
} as const;

/** What a client socket may send about the terminal (the holder only; others get `not_holder`). */
export const terminalClientShapes = {
  terminal_input: { data: z.string().min(1).max(MAX_TERMINAL_INPUT_CHARS) },
  terminal_resize: terminalSizeSchema.shape,
} as const;

/** Who holds the terminal now, sent to every socket when it changes and after a snapshot. */
export const terminalStateSchema = z.object({
  open: z.boolean(),
  /** Who holds it ("the web UI", "the CLI", "an API client"), or null when closed. */
  by: z.string().nullable(),
  /** Whether this socket is the one that types. */
  you: z.boolean(),
  level: z.number().int().min(0).nullable(),
  size: terminalSizeSchema.nullable(),
});
export type TerminalState = z.infer<typeof terminalStateSchema>;

// ── Durable Object ⇄ proxy: a WebSocket at GET /v1/terminal (Authorization: Bearer PROXY_SECRET) ──

/** The Durable Object's first message: which login to open. Everything after is input, resize or close. */
export const terminalOpenSchema = z.strictObject({
  type: z.literal('open'),
  runId: z.string().min(1),
  target: z.string().min(1),
  level: z.number().int().min(0),
  /** The level's password (the run's login); null only for a target whose level 0 password is known. */
  password: z.string().nullable(),
  cols: z.number().int(),
  rows: z.number().int(),
  /** The run's private world (schema/worlds.ts): the shell plays there. Absent: the shared world. Additive. */
  world: worldKeySchema.optional(),
});

/** What the Durable Object sends the proxy over the relay. */
export const relayToProxySchema = z.discriminatedUnion('type', [
  terminalOpenSchema,
  z.strictObject({ type: z.literal('input'), data: z.string().min(1).max(MAX_TERMINAL_INPUT_CHARS) }),
  z.strictObject({ type: z.literal('resize'), ...terminalSizeSchema.shape }),
  z.strictObject({ type: z.literal('close') }),
]);
export type RelayToProxy = z.infer<typeof relayToProxySchema>;

/** What the proxy sends back over the relay. */
export const relayFromProxySchema = z.discriminatedUnion('type', [
  /** The SSH login succeeded and the PTY is open. */
  z.object({ type: z.literal('opened') }),
  z.object({ type: z.literal('output'), data: terminalBytesSchema }),
  /** A password that appeared in the output logged in as the next level's user. */
  z.object({ type: z.literal('proved'), level: z.number().int().min(0), password: z.string().min(1) }),
  /** The shell or login ended; the socket closes after this. */
  z.object({ type: z.literal('closed'), message: z.string() }),
]);
export type RelayFromProxy = z.infer<typeof relayFromProxySchema>;

/** The proxy's path for the relay. */
export const TERMINAL_RELAY_PATH = '/v1/terminal';

/** A Bandit password as it appears in output: 32 letters and digits (the proxy tries each such word). */
export const PASSWORD_WORD = /\b[A-Za-z0-9]{32}\b/g;
