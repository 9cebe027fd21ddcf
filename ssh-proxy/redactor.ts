// Keeps secrets out of everything the proxy sends to be stored or shown: a password a person typed,
// the model API key and the proxy secret, in any usual form (schema/secret-forms.ts). Events, traces
// and end lines pass through it; checkpoints do not, since the run needs the level's password to go on.

import { REDACTED } from '../schema/protocol.ts';
import {
  compileSecretForms,
  MIN_SECRET_LENGTH,
  replaceSecretForms,
  unfinishedWrapped,
} from '../schema/secret-forms.ts';
import type { SecretForms } from '../schema/secret-forms.ts';

export { REDACTED };

/** Replaces every known secret, and its base64, hex, reversed, spaced and URL-encoded copies. */
export class Redactor {
  private readonly secrets = new Set<string>();
  private compiled: { text: SecretForms; json: SecretForms } | null = null;

  constructor(secrets: Iterable<string | null | undefined>) {
    for (const secret of secrets) this.add(secret);
  }

  /** Adds a secret; empty or very short values are ignored (they would redact ordinary text). */
  add(secret: string | null | undefined): void {
    if (!secret || secret.length < MIN_SECRET_LENGTH || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.compiled = null;
  }

  /** How many characters at the end of `text` could be the start of a secret's form that more text would finish. */
  unfinished(text: string): number {
    const forms = this.forms().text;
    const { literals, prefixes } = forms;
    // A hex or base64 copy broken over lines (`xxd -p`, `base64`) is held back across its line breaks.
    let most = unfinishedWrapped(text, forms);
    for (const { form } of literals) {
      for (let k = Math.min(form.length - 1, text.length); k > most; k--) {
        if (text.endsWith(form.slice(0, k))) {
          most = k;
          break;
        }
      }
    }
    for (const prefix of prefixes) {
      const tail = text.slice(-(prefix.source.length + most));
      const match = prefix.exec(tail);
      if (match) most = Math.max(most, tail.length - match.index);
    }
    return most;
  }

  /** Plain text with each secret's forms replaced. */
  text(plain: string): string {
    return replaceSecretForms(plain, this.forms().text);
  }

  /** The JSON text with each secret's forms, as they appear inside a JSON string, replaced. */
  json(text: string): string {
    return replaceSecretForms(text, this.forms().json);
  }

  private forms(): { text: SecretForms; json: SecretForms } {
    if (!this.compiled) {
      const secrets = [...this.secrets].map((value) => ({ value, placeholder: REDACTED }));
      this.compiled = {
        text: compileSecretForms(secrets, { json: false }),
        json: compileSecretForms(secrets, { json: true }),
      };
    }
    return this.compiled;
  }
}
