'use client';
// The shared terminal's side of the run page's socket: who holds it (the server's `terminal` messages),
// why a takeover or a keystroke was refused, and the feed of bytes the xterm writes. Keystrokes pass
// straight to the socket and are never kept, logged or put in React state.
import { useMemo, useRef, useState } from 'react';
import type { TerminalState } from '../../schema/terminal.ts';
import { TerminalFeed } from './terminal-feed.ts';
import type { SocketListener } from './use-run-socket.ts';

/** Error codes of the socket that concern the terminal: they are shown in its panel. */
const TERMINAL_ERRORS = new Set(['terminal_held', 'not_holder', 'terminal_failed']);

/** What the page knows about the run's terminal, and the listener that keeps it current. */
export type RunTerminalLink = {
  /**
   * The server's latest word: `by` holds it or asked for it (`open` is false while the agent finishes its
   * step), `you` on the socket that asked. Null until one comes after the socket's snapshot.
   */
  state: TerminalState | null;
  /** Why the last takeover (or a keystroke) was refused, in the server's words; cleared by a new try. */
  problem: string | null;
  /** The server's last refusal about the terminal, kept: the page's header leaves that notice to the panel. */
  refusal: string | null;
  /** A takeover or a handback was sent and no answer has come yet. */
  waiting: boolean;
  /** Sessions in the run's log so far (the xterm is shown once there is one). */
  sessions: number;
  feed: TerminalFeed;
  listener: SocketListener;
  /** Notes that a takeover or handback was just sent: the next `terminal` or error frame answers it. */
  expect: () => void;
  /** Shows a problem found before anything was sent (no socket open). */
  refuse: (problem: string) => void;
};

/** Follows the terminal of the run `runId` over the page's socket (pass `listener` to useRunSocket). */
export function useRunTerminal(runId: string | null): RunTerminalLink {
  const [state, setState] = useState<TerminalState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [sessions, setSessions] = useState(0);
  // Read by the listener, which is made once per run: any error frame answers a takeover in flight.
  const asked = useRef(false);
  const answered = () => {
    asked.current = false;
    setWaiting(false);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new run is a new feed; the id is the trigger.
  const { feed, listener } = useMemo(() => {
    const feed = new TerminalFeed();
    const listener: SocketListener = {
      onMessage: (message) => {
        if (message.type === 'snapshot') {
          // A new socket holds nothing until the server says so (it sends `terminal` after its replay).
          setState(null);
        } else if (message.type === 'terminal') {
          const { type: _, ...next } = message;
          setState(next);
          answered();
          if (next.you || !next.open) setProblem(null);
        } else if (message.type === 'error' && (asked.current || TERMINAL_ERRORS.has(message.code))) {
          setProblem(message.message);
          setRefusal(message.message);
          answered();
        }
      },
      onEvent: (event) => {
        const before = feed.sessions;
        feed.event(event);
        if (feed.sessions !== before) setSessions(feed.sessions);
      },
    };
    return { feed, listener };
  }, [runId]);

  return {
    state,
    problem,
    refusal,
    waiting,
    sessions,
    feed,
    listener,
    expect: () => {
      setProblem(null);
      asked.current = true;
      setWaiting(true);
    },
    refuse: (text) => {
      setProblem(text);
      answered();
    },
  };
}
