// Watches a held terminal's output for words shaped like a Bandit password and tries each new one
// once as the next level's login (the same oracle `validate` trusts): a person's commands that print
// the next password prove the level. Capped per terminal, so a flood of words cannot make the proxy
// a brute-force tool against the target.
import { PASSWORD_WORD } from '../../schema/terminal.ts';
import { withoutEscapes } from '../../schema/screen-bytes.ts';

/** Most logins one terminal may try; words after that are ignored (docs/agent.md). */
export const MAX_PROOF_TRIES = 50;

/** Characters of output kept between chunks, so a word split over two chunks is still seen. */
const TAIL_CHARS = 96;

/** Logs in as the next level with `password`: true when the login works, false when refused or failing. */
export type LoginOracle = (password: string) => Promise<boolean>;

export class PasswordProof {
  private tail = '';
  private readonly seen = new Set<string>();
  private tries = 0;
  private proved = false;
  private queue: Promise<void> = Promise.resolve();
  private readonly current: string;
  private readonly oracle: LoginOracle;
  private readonly onProved: (password: string) => void;

  /** `current` is the level's own password (never tried); `onProved` is called once, for the first word that logs in. */
  constructor(current: string, oracle: LoginOracle, onProved: (password: string) => void) {
    this.current = current;
    this.oracle = oracle;
    this.onProved = onProved;
  }

  /** Logins tried so far. */
  get tried(): number {
    return this.tries;
  }

  /** Reads one chunk of output; new candidate words are tried in turn, one login at a time. */
  scan(chunk: string): void {
    if (this.proved) return;
    const text = withoutEscapes(this.tail + chunk, ' ');
    // The tail starts at a word's start: a word cut in two there would look like a shorter word.
    this.tail = text.slice(-TAIL_CHARS).replace(text.length > TAIL_CHARS ? /^[A-Za-z0-9]+/ : /^$/, '');
    for (const match of text.matchAll(PASSWORD_WORD)) {
      // A word touching the end may go on in the next chunk: the tail brings it back whole.
      if (match.index + match[0].length === text.length) continue;
      this.consider(match[0]);
    }
  }

  /** Resolves when every login asked so far has been tried (tests wait on it). */
  settled(): Promise<void> {
    return this.queue;
  }

  /** The output is over: a word the last chunk ended on is whole now; resolves when every try is done. */
  finish(): Promise<void> {
    this.scan('\n');
    return this.settled();
  }

  private consider(word: string): void {
    if (word === this.current || this.seen.has(word) || this.tries >= MAX_PROOF_TRIES) return;
    this.seen.add(word);
    this.tries += 1;
    this.queue = this.queue.then(async () => {
      if (this.proved) return;
      if (await this.oracle(word).catch(() => false)) {
        this.proved = true;
        this.onProved(word);
      }
    });
  }
}
