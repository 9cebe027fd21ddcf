// An archive's files as one zip, streamed (fflate): each file is deflated as its text comes, a piece at a
// time, and its size and sha256 are counted on the way, so manifest.json, written last, can list them.
// Nothing holds a whole file; a slow reader holds back the work, since the next piece is made on its pull.
import { createHash } from 'node:crypto';
import { Zip, ZipDeflate } from 'fflate';

/** One file of the archive: its path and its text, in pieces. */
export type ArchiveEntry = { path: string; text: AsyncIterable<string> };

/** A file as the manifest lists it. */
export type ListedFile = { path: string; bytes: number; sha256: string };

/** The zip of `entries`, in order, then of the manifest made from what they were. */
export function zipStream(
  entries: AsyncIterable<ArchiveEntry>,
  manifest: (listed: ListedFile[]) => string,
): ReadableStream<Uint8Array> {
  const chunks = zipChunks(entries, manifest)[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  });
}

async function* zipChunks(
  entries: AsyncIterable<ArchiveEntry>,
  manifest: (listed: ListedFile[]) => string,
): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failed: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failed = err;
    else if (chunk.length) out.push(chunk);
  });
  const encoder = new TextEncoder();
  const listed: ListedFile[] = [];
  const add = async function* (path: string, text: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
    const file = new ZipDeflate(path, { level: 6 });
    // Scripts are executable once unpacked (unzip keeps the mode).
    if (path.endsWith('.sh')) {
      file.os = 3; // Unix, so the mode below is read
      file.attrs = 0o100755 << 16;
    }
    zip.add(file);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const piece of text) {
      if (!piece) continue;
      const data = encoder.encode(piece);
      hash.update(data);
      bytes += data.length;
      file.push(data);
      yield* taken();
    }
    file.push(new Uint8Array(0), true);
    listed.push({ path, bytes, sha256: hash.digest('hex') });
    yield* taken();
  };
  function* taken(): Generator<Uint8Array> {
    if (failed) throw failed;
    yield* out.splice(0);
  }
  for await (const entry of entries) yield* add(entry.path, entry.text);
  yield* add('manifest.json', once(manifest(listed)));
  zip.end();
  yield* taken();
}

/** One piece of text, as an entry's text. */
export async function* once(text: string): AsyncIterable<string> {
  yield text;
}
