// Byte formats the levels are built from: xxd dumps, rot13, a minimal ustar writer, gzip and bzip2.
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type compressjsModule from 'compressjs';

// compressjs is an AMD/CommonJS module; loading it through Node's own require keeps it working
// under module runners (vitest's global setup) that would otherwise try to inline it.
const compressjs = createRequire(import.meta.url)('compressjs') as typeof compressjsModule;

/** `xxd` output: offset, 16 bytes as 8 groups of 2, and the printable column. */
export function xxdDump(bytes: Uint8Array): string {
  let out = '';
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const row = bytes.subarray(offset, offset + 16);
    let hex = '';
    for (let i = 0; i < 16; i++) {
      hex += i < row.length ? row[i]!.toString(16).padStart(2, '0') : '  ';
      if (i % 2 === 1) hex += ' ';
    }
    const text = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    out += `${offset.toString(16).padStart(8, '0')}: ${hex} ${text}\n`;
  }
  return out;
}

export function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** gzip with the original file name in the header, as `gzip file` writes it. */
export function gzipNamed(bytes: Uint8Array, name: string): Uint8Array {
  const plain = gzipSync(bytes, { level: 9 });
  // Set FNAME (flag bit 3) and splice the zero-terminated name in after the 10-byte header.
  const header = Buffer.from(plain.subarray(0, 10));
  header[3] = (header[3]! | 0x08) & 0xff;
  header.writeUInt32LE(0, 4); // mtime 0: the same seed gives the same bytes
  return Buffer.concat([header, Buffer.from(`${name}\0`, 'latin1'), plain.subarray(10)]);
}

export function bzip2(bytes: Uint8Array): Uint8Array {
  return Uint8Array.from(compressjs.Bzip2.compressFile(Buffer.from(bytes)) as ArrayLike<number>);
}

/** A ustar archive of regular files. */
export function tarOf(files: { name: string; content: Uint8Array; mode?: number }[]): Uint8Array {
  const blocks: Buffer[] = [];
  for (const file of files) {
    const header = Buffer.alloc(512);
    header.write(file.name, 0, 100, 'utf8');
    header.write(octal(file.mode ?? 0o644, 7), 100);
    header.write(octal(0, 7), 108);
    header.write(octal(0, 7), 116);
    header.write(octal(file.content.length, 11), 124);
    header.write(octal(0, 11), 136);
    header.write('        ', 148); // checksum is computed with spaces here
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    header.write('root', 265);
    header.write('root', 297);
    let sum = 0;
    for (const b of header) sum += b;
    // Six octal digits, NUL, space: exactly the 8 bytes of the field (the type flag follows at 156).
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, Buffer.from(file.content), Buffer.alloc((512 - (file.content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width, '0')}\0`;
}
