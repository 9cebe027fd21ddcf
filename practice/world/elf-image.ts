// The bytes of the setuid helpers (bandit20-do, suconnect, bandit27-do, uppershell): a small but
// well-formed 32-bit i386 ELF executable — program headers with an interpreter, a dynamic segment
// and notes (a GNU build id, the ABI tag), and section headers with a symbol table — so that
// Debian's file(1) describes them as it describes the real server's helpers, and the range's `file`
// reads the same fields back (describeElf). The range runs them by name; the code never runs.
import { createHash } from 'node:crypto';

const INTERP = '/lib/ld-linux.so.2';
const BASE = 0x08048000;
const PT = { LOAD: 1, DYNAMIC: 2, INTERP: 3, NOTE: 4 };
const SHT = { PROGBITS: 1, SYMTAB: 2, STRTAB: 3, DYNAMIC: 6, NOTE: 7 };

/** An ELF image whose build id is derived from `name`, so each helper has its own. */
export function elfExecutable(name: string): Uint8Array {
  const buildId = createHash('sha1').update(`bandit-runner:${name}`).digest();
  const interp = Buffer.from(`${INTERP}\0`);
  const abiTag = note(1, Buffer.from([0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]));
  const buildIdNote = note(3, buildId);
  const dynamic = Buffer.alloc(8); // DT_NULL alone
  const symtab = Buffer.alloc(16); // the null symbol
  const strtab = Buffer.from('\0');
  const names = ['', '.interp', '.note.gnu.build-id', '.note.ABI-tag', '.dynamic', '.symtab', '.strtab', '.shstrtab'];
  const shstrtab = Buffer.from(`${names.join('\0')}\0`);
  const nameOffset = (n: string) => names.slice(0, names.indexOf(n)).reduce((sum, x) => sum + x.length + 1, 0);

  const phnum = 5;
  let offset = 52 + 32 * phnum;
  const place = (data: Buffer, align = 4) => {
    offset = Math.ceil(offset / align) * align;
    const at = offset;
    offset += data.length;
    return { at, data };
  };
  const parts = {
    interp: place(interp, 1),
    buildId: place(buildIdNote),
    abiTag: place(abiTag),
    dynamic: place(dynamic),
    symtab: place(symtab),
    strtab: place(strtab, 1),
    shstrtab: place(shstrtab, 1),
  };
  const shoff = Math.ceil(offset / 4) * 4;
  const shnum = names.length;
  const image = Buffer.alloc(shoff + 40 * shnum);

  // ELF header: 32-bit, little-endian, version 1, System V; an executable for Intel 80386.
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1, 0]).copy(image, 0);
  image.writeUInt16LE(2, 16);
  image.writeUInt16LE(3, 18);
  image.writeUInt32LE(1, 20);
  image.writeUInt32LE(BASE + parts.interp.at, 24);
  image.writeUInt32LE(52, 28);
  image.writeUInt32LE(shoff, 32);
  image.writeUInt16LE(52, 40);
  image.writeUInt16LE(32, 42);
  image.writeUInt16LE(phnum, 44);
  image.writeUInt16LE(40, 46);
  image.writeUInt16LE(shnum, 48);
  image.writeUInt16LE(shnum - 1, 50);

  const segments: [number, { at: number; data: Buffer }, number][] = [
    [PT.INTERP, parts.interp, 4],
    [PT.LOAD, { at: 0, data: Buffer.alloc(shoff) }, 5],
    [PT.DYNAMIC, parts.dynamic, 6],
    [PT.NOTE, parts.buildId, 4],
    [PT.NOTE, parts.abiTag, 4],
  ];
  segments.forEach(([type, part, flags], i) => {
    const at = 52 + 32 * i;
    image.writeUInt32LE(type, at);
    image.writeUInt32LE(part.at, at + 4);
    image.writeUInt32LE(BASE + part.at, at + 8);
    image.writeUInt32LE(BASE + part.at, at + 12);
    image.writeUInt32LE(part.data.length, at + 16);
    image.writeUInt32LE(part.data.length, at + 20);
    image.writeUInt32LE(flags, at + 24);
    image.writeUInt32LE(type === PT.LOAD ? 0x1000 : type === PT.INTERP ? 1 : 4, at + 28);
  });
  for (const part of Object.values(parts)) part.data.copy(image, part.at);

  const sections: [string, number, { at: number; data: Buffer }, number, number, number][] = [
    ['.interp', SHT.PROGBITS, parts.interp, 0, 0, 1],
    ['.note.gnu.build-id', SHT.NOTE, parts.buildId, 0, 0, 4],
    ['.note.ABI-tag', SHT.NOTE, parts.abiTag, 0, 0, 4],
    ['.dynamic', SHT.DYNAMIC, parts.dynamic, 6, 8, 4],
    ['.symtab', SHT.SYMTAB, parts.symtab, 6, 16, 4],
    ['.strtab', SHT.STRTAB, parts.strtab, 0, 0, 1],
    ['.shstrtab', SHT.STRTAB, parts.shstrtab, 0, 0, 1],
  ];
  sections.forEach(([name, type, part, link, entsize, align], i) => {
    const at = shoff + 40 * (i + 1);
    image.writeUInt32LE(nameOffset(name), at);
    image.writeUInt32LE(type, at + 4);
    image.writeUInt32LE(name === '.symtab' || name.endsWith('strtab') ? 0 : BASE + part.at, at + 12);
    image.writeUInt32LE(part.at, at + 16);
    image.writeUInt32LE(part.data.length, at + 20);
    image.writeUInt32LE(link, at + 24);
    image.writeUInt32LE(name === '.symtab' ? 1 : 0, at + 28);
    image.writeUInt32LE(align, at + 32);
    image.writeUInt32LE(entsize, at + 36);
  });
  return new Uint8Array(image);
}

function note(type: number, desc: Buffer): Buffer {
  const out = Buffer.alloc(12 + 4 + Math.ceil(desc.length / 4) * 4);
  out.writeUInt32LE(4, 0);
  out.writeUInt32LE(desc.length, 4);
  out.writeUInt32LE(type, 8);
  out.write('GNU\0', 12, 'latin1');
  desc.copy(out, 16);
  return out;
}
