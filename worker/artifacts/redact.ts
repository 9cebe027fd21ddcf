// Secrets out of an archive: every level password the run proved and every private key its outputs
// showed become placeholders in every file, unless the caller asked for them.
import type { RunEvent } from '../../schema/protocol.ts';
import { REDACTED } from '../../schema/protocol.ts';
import { compileSecretForms, replaceSecretForms } from '../../schema/secret-forms.ts';
import type { SecretForms } from '../../schema/secret-forms.ts';

export type Redaction = { placeholder: string; kind: 'password' | 'private_key'; level: number | null };

const PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g;

/** A secret of the run and its placeholder. */
export type RunSecret = { value: string; redaction: Redaction };

/** The run's secrets, folded an event at a time. bandit0's password is the game's public one and stays. */
export class SecretsFold {
  private readonly found = new Map<string, RunSecret>();
  private keys = 0;

  add(event: RunEvent): void {
    if (event.type === 'password_found' && event.password !== REDACTED && !this.found.has(event.password)) {
      const level = event.level + 1;
      this.found.set(event.password, {
        value: event.password,
        redaction: { placeholder: `[REDACTED:bandit${level}-password]`, kind: 'password', level },
      });
    }
    if (event.type === 'output') {
      for (const text of [event.stdout, event.stderr]) {
        for (const match of text.matchAll(PRIVATE_KEY)) {
          const key = match[0];
          if (!this.found.has(key))
            this.found.set(key, {
              value: key,
              redaction: {
                placeholder: `[REDACTED:private-key-${++this.keys}]`,
                kind: 'private_key',
                level: event.level,
              },
            });
        }
      }
    }
  }

  /** The secrets found so far, in the order they first appeared. */
  get secrets(): RunSecret[] {
    return [...this.found.values()];
  }
}

/** The run's secrets, each with its placeholder. */
export function secretsOf(events: readonly RunEvent[]): RunSecret[] {
  const fold = new SecretsFold();
  for (const event of events) fold.add(event);
  return fold.secrets;
}

/** Compiled forms by the secrets they were compiled from, so each request for the same run's archive compiles none. */
const compiled = new Map<string, { json: SecretForms; text: SecretForms }>();
const COMPILED_MAX = 16;

function formsOf(secrets: readonly RunSecret[]): {
  json: SecretForms;
  text: SecretForms;
} {
  const key = JSON.stringify(secrets.map(({ value, redaction }) => [value, redaction.placeholder]));
  let forms = compiled.get(key);
  if (!forms) {
    const replacements = secrets.map(({ value, redaction }) => ({ value, placeholder: redaction.placeholder }));
    // A key that contains a password is replaced whole: literal forms are tried longest first.
    forms = {
      json: compileSecretForms(replacements, { json: true }),
      text: compileSecretForms(replacements, { json: false }),
    };
    if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, forms);
  }
  return forms;
}

/**
 * `text` with each secret and its usual transforms (schema/secret-forms.ts) replaced. `json`: the text
 * is JSON, so only the forms as they stand inside a JSON string are looked for (a form of the raw
 * secret cannot stand in it, and replacing one across JSON syntax would break it); otherwise (an
 * archive file of any kind) both.
 */
export function redact(text: string, secrets: readonly RunSecret[], options: { json?: boolean } = {}): string {
  return redactorOf(secrets)(text, options);
}

/** redact() for many texts with the same secrets: the forms are looked up once, not per text. */
export function redactorOf(secrets: readonly RunSecret[]): (text: string, options?: { json?: boolean }) => string {
  const forms = formsOf(secrets);
  return (text, options = {}) => {
    const inJson = replaceSecretForms(text, forms.json);
    return options.json ? inJson : replaceSecretForms(inJson, forms.text);
  };
}

/** The run's log as an archive shows it: redacted unless secrets are included, and the secrets taken out. */
export function shownEvents(
  events: readonly RunEvent[],
  includeSecrets: boolean,
): { events: RunEvent[]; secrets: RunSecret[] } {
  const secrets = includeSecrets ? [] : secretsOf(events);
  // Parsed back from the redacted text, so no form of a secret (a key's line breaks as CR LF in the
  // recording, say) escapes a builder.
  return {
    events: secrets.length
      ? (JSON.parse(redact(JSON.stringify(events), secrets, { json: true })) as RunEvent[])
      : [...events],
    secrets,
  };
}
