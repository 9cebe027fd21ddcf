// The end of a person's screen as text, for the note the agent gets when the terminal is handed back:
// the words they saw, without the escapes that drew them.
import { ScreenDecoder, withoutEscapes } from '../../schema/screen-bytes.ts';
import { plainText } from '../../schema/terminal-text.ts';

/** The most of the screen's end kept (the note is a hint: at most 2,000 characters). */
const TAIL_CHARS = 1200;
/** A hint's limit (hintSchema). */
const NOTE_CHARS = 2000;

/** One session's screen end, fed its output chunks in order. */
export class ScreenTail {
  /** Joins a character or an escape split between two chunks, as a screen would. */
  private readonly decoder = new ScreenDecoder();
  private text = '';

  /** One chunk of output (base64). */
  add(base64: string): void {
    const chunk = withoutEscapes(this.decoder.next(base64)).replace(/\r/g, '');
    this.text = plainText(this.text + chunk).slice(-TAIL_CHARS);
  }

  /** The handback note: who held the terminal at which level, for how long, and the end of their screen. */
  note(level: number, seconds: number): string {
    const seen = this.text.trim();
    const screen = seen ? `\nThe end of their screen:\n${seen}` : '';
    return `A person took the terminal at level ${level} for ${seconds} s and handed it back.${screen}`.slice(
      0,
      NOTE_CHARS,
    );
  }
}
