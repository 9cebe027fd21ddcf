// A command line's output as a list of chunks, each on stdout or stderr, in the order it was written:
// what an exec channel and a terminal replay, so that git's "Cloning into…" (stderr) comes before the
// `&& echo done` after it, as on a real terminal.
import type { OutputChunk, OutputStream } from './shell-job.ts';

/** The two streams apart (stdout as bytes, stderr as text), with `output`, their order. */
export function byStream(output: OutputChunk[]): { stdout: Uint8Array; stderr: string; output: OutputChunk[] } {
  const of = (stream: OutputStream) => Buffer.concat(output.filter((c) => c.stream === stream).map((c) => c.bytes));
  return { stdout: of('stdout'), stderr: of('stderr').toString('utf8'), output };
}

/** The chunks to write, in order: `output` when the result has it, else its stdout, then its stderr. */
export function inOrder(result: { stdout: Uint8Array; stderr: string; output?: OutputChunk[] }): OutputChunk[] {
  if (result.output) return result.output;
  const chunks: OutputChunk[] = [
    { stream: 'stdout', bytes: result.stdout },
    { stream: 'stderr', bytes: Buffer.from(result.stderr, 'utf8') },
  ];
  return chunks.filter((c) => c.bytes.length > 0);
}

/** Keeps `cap` bytes of each stream; a stream cut there ends with `note`, and its later chunks go. */
export function capOutput(output: OutputChunk[], cap: number, note: string): OutputChunk[] {
  const used = { stdout: 0, stderr: 0 };
  const kept: OutputChunk[] = [];
  for (const chunk of output) {
    const room = cap - used[chunk.stream];
    if (room < 0) continue;
    if (chunk.bytes.length <= room) kept.push(chunk);
    else kept.push({ stream: chunk.stream, bytes: Buffer.concat([chunk.bytes.subarray(0, room), Buffer.from(note)]) });
    // A cut stream is marked spent (room below zero) so that the note comes once.
    used[chunk.stream] += chunk.bytes.length <= room ? chunk.bytes.length : room + 1;
  }
  return kept;
}
