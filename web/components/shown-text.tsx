// Text a target, a model or a person wrote, as the web shows it: its bidi controls (U+202E and the
// rest) made visible by the shared rule (schema/terminal-text.ts), inside a <bdi>, its own bidi island,
// so nothing in it can reorder the labels around it ("(user)" stays "(user)"). React escapes the rest.
import { visibleBidi } from '../../schema/terminal-text.ts';

/** Untrusted text, bidi-safe. */
export function Shown({ text }: { text: string }) {
  return <bdi className="shown">{visibleBidi(text)}</bdi>;
}
