// Colour only on a terminal, and never with NO_COLOR (https://no-color.org) or --no-color.
import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

export function colorsFor(stream: NodeJS.WriteStream, wanted: boolean): Colors {
  const on = wanted && Boolean(stream.isTTY) && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '');
  return pc.createColors(on);
}
