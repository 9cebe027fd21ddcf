// Keeps secrets out of everything the proxy sends to be stored or shown: a password a person typed,
// the model API key and the proxy secret. Events, traces and end lines pass through it; checkpoints
// do not, since the run needs the level's password to go on (they stay in the Durable Object alone).

import { REDACTED } from '../schema/protocol.ts';

export { REDACTED };

/** Replaces every known secret in a line's JSON text. */
export class Redactor {
  private readonly secrets = new Set<string>();

  constructor(secrets: Iterable<string | null | undefined>) {
    for (const secret of secrets) this.add(secret);
  }

  /** Adds a secret; empty or very short values are ignored (they would redact ordinary text). */
  add(secret: string | null | undefined): void {
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }

  /** How many characters at the end of `text` could be the start of a secret that more text would finish. */
  unfinished(text: string): number {
    let most = 0;
    for (const secret of this.secrets) {
      for (let k = Math.min(secret.length - 1, text.length); k > most; k--) {
        if (text.endsWith(secret.slice(0, k))) {
          most = k;
          break;
        }
      }
    }
    return most;
  }

  /** Plain text with each secret replaced. */
  text(plain: string): string {
    let out = plain;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** The JSON text with each secret, as it appears inside a JSON string, replaced. */
  json(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (out.includes(escaped)) out = out.split(escaped).join(REDACTED);
    }
    return out;
  }
}
