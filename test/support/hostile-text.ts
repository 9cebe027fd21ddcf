// Hostile text a target, a model or a server may send: every kind of escape or control a terminal,
// a markdown renderer or a browser could act on. One list, so each place that shows text is tried
// with the same payloads and the counts in the report mean the same thing.

/** A marker inside each payload: finding it in a clipboard, a title or a page means the payload acted. */
export const MARK = 'PWNED7x';

/** Invalid UTF-8 as a target's bytes arrive after decoding: replacement characters in bulk. */
const invalidUtf8 = new TextDecoder().decode(
  new Uint8Array([
    0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0xff, 0xfe, 0xfd, 0xc0, 0xc1, 0xf5, 0xf8,
  ]),
);

export const HOSTILE: readonly { kind: string; text: string }[] = [
  { kind: 'osc52 clipboard (BEL)', text: `before\x1b]52;c;${btoa(MARK)}\x07after` },
  { kind: 'osc52 clipboard (ST)', text: `\x1b]52;c;${btoa(`${MARK}-st`)}\x1b\\` },
  { kind: 'osc0 title', text: `\x1b]0;${MARK}-title\x07` },
  { kind: 'osc2 title', text: `\x1b]2;${MARK}-title2\x1b\\` },
  { kind: 'osc8 link', text: `\x1b]8;;https://evil.example/${MARK}\x1b\\click me\x1b]8;;\x1b\\` },
  { kind: 'dcs (tmux passthrough)', text: `\x1bPtmux;\x1b\x1b]52;c;${btoa(`${MARK}-dcs`)}\x07\x1b\\` },
  { kind: 'apc/pm/sos', text: `\x1b_${MARK}-apc\x1b\\\x1b^${MARK}-pm\x1b\\\x1bX${MARK}-sos\x1b\\` },
  { kind: 'c1 csi + osc (8-bit)', text: `\u009b2J\u009d52;c;${btoa(`${MARK}-c1`)}\u0007\u0090x\u009c` },
  { kind: 'clear screen + cursor', text: `\x1b[2J\x1b[H\x1b[3;1H\x1b[2K\x1b[1A\x1b[?1049h\x1bc` },
  { kind: 'fake prompt with CR', text: `real output\r\x1b[Kbandit0@bandit:~$ ` },
  { kind: 'nul bytes', text: `a\x00b${'\x00'.repeat(64)}` },
  { kind: 'bidi override', text: `\u202e(user)\u202c and \u2067isolate\u2069 \u200f` },
  {
    kind: 'html + javascript link',
    text: `<script>alert('${MARK}')</script><img src=x onerror=alert(1)> [x](javascript:alert('${MARK}'))`,
  },
  { kind: 'invalid utf-8', text: invalidUtf8.repeat(4) },
  { kind: '1 MB line', text: `${'A'.repeat(1024 * 1024)}\x1b]0;${MARK}-long\x07` },
];

/** What must never be in sanitised output: an ESC outside a well-formed SGR, C1, bidi controls, NUL. */
export function forbiddenIn(text: string): string[] {
  const found: string[] = [];
  if (text.replace(/\x1b\[[0-9;:]*m/g, '').includes('\x1b')) found.push('ESC outside SGR');
  if (/[\u0080-\u009f]/.test(text)) found.push('C1');
  if (/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(text)) found.push('bidi control');
  if (/[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]/.test(text)) found.push('C0/DEL');
  return found;
}
