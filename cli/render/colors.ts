// Colour only on a terminal, and never with NO_COLOR (https://no-color.org) or --no-color.
import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

/** Colours for `stream`: on when `color` is wanted (no --no-color), the stream is a terminal and NO_COLOR is unset. */
export function colorsFor(stream: NodeJS.WriteStream, options: { color: boolean }): Colors {
  const on = options.color && Boolean(stream.isTTY) && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '');
  return pc.createColors(on);
}
