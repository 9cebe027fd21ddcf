// The baseline's local decoding: text that looks encoded (base64, rot13, an xxd hex dump of
// compressed data) is decoded in the proxy, and what comes out is searched for passwords.
import { gunzipSync } from 'node:zlib';
import Bunzip from 'seek-bzip';

const COMMON_WORDS = /\b(the|password|is|for|next|level|of|and|you|to)\b/gi;

/** Plain-text readings of `text` besides itself; empty when nothing looks encoded. */
export function decodedReadings(text: string): string[] {
  const readings: string[] = [];
  for (const token of text.match(/[A-Za-z0-9+/]{16,}={0,2}/g) ?? []) {
    if (token.length % 4 !== 0) continue;
    const decoded = Buffer.from(token, 'base64').toString('latin1');
    if (isPrintable(decoded)) readings.push(decoded);
  }
  const rotated = rot13(text);
  if (englishScore(rotated) > englishScore(text)) readings.push(rotated);
  const dumped = fromHexDump(text);
  if (dumped) readings.push(...unpack(dumped, 0));
  return readings;
}

export function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

const englishScore = (text: string): number => text.match(COMMON_WORDS)?.length ?? 0;

function isPrintable(text: string): boolean {
  if (text.length === 0) return false;
  const printable = text.match(/[\x20-\x7e\n\t]/g)?.length ?? 0;
  return printable / text.length > 0.95;
}

/** The bytes of an `xxd` dump ("00000000: 1f8b 0808 …  ascii"), or null when `text` is not one. */
export function fromHexDump(text: string): Buffer | null {
  const lines = text.split('\n').filter((l) => l.trim());
  const rows = lines.map((l) => /^[0-9a-f]{8}: ((?:[0-9a-f]{2,4} ?)+)/.exec(l));
  if (rows.length < 2 || rows.some((r) => !r)) return null;
  const hex = rows.map((r) => (r?.[1] ?? '').replace(/\s/g, '')).join('');
  return hex.length % 2 === 0 ? Buffer.from(hex, 'hex') : null;
}

/** Unwraps gzip, bzip2 and tar layers until text appears; returns the texts found. */
export function unpack(bytes: Buffer, depth: number): string[] {
  if (depth > 16) return [];
  try {
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) return unpack(gunzipSync(bytes), depth + 1);
    if (bytes.subarray(0, 3).toString('latin1') === 'BZh') return unpack(Bunzip.decode(bytes), depth + 1);
    if (bytes.subarray(257, 262).toString('latin1') === 'ustar')
      return tarEntries(bytes).flatMap((entry) => unpack(entry, depth + 1));
  } catch {
    return [];
  }
  const text = bytes.toString('latin1');
  return isPrintable(text) ? [text] : [];
}

/** The regular files in a tar archive (512-byte headers, octal sizes). */
function tarEntries(bytes: Buffer): Buffer[] {
  const files: Buffer[] = [];
  for (let offset = 0; offset + 512 <= bytes.length; ) {
    const header = bytes.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === '0' || type === '\0') files.push(bytes.subarray(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
