// A person's messages to a running agent that it has not read yet (issue 30). Kept in the object's
// SQLite from the moment they are sent until the step that reads them is stored, so none is lost or read twice.
import type { RunEvent } from '../../schema/protocol.ts';

/** One unread message: the seq of its message_sent event and its text. */
export type InboxMessage = { seq: number; text: string };

/** The most messages one proxy call carries (proxyRequestSchema allows 50); the rest go with the next. */
const MAX_PER_CALL = 50;

/** The unread messages of one run (table inbox, object-sql/schema.ts). */
export class MessageInbox {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** Keeps a message just stored as the event at `seq`. */
  add(seq: number, text: string): void {
    this.sql.exec('INSERT OR IGNORE INTO inbox (seq, text) VALUES (?, ?)', seq, text);
  }

  /** The unread messages, oldest first, as many as one call carries. */
  unread(): InboxMessage[] {
    return this.sql.exec<InboxMessage>('SELECT seq, text FROM inbox ORDER BY seq LIMIT ?', MAX_PER_CALL).toArray();
  }

  /** Drops the messages a step's message_read events say the agent read; call inside the step's transaction. */
  markRead(events: readonly RunEvent[]): void {
    for (const event of events)
      if (event.type === 'message_read') this.sql.exec('DELETE FROM inbox WHERE seq = ?', event.messageSeq);
  }
}
