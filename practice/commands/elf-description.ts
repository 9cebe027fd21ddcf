// What file(1) 5.44 says about an ELF image, read from its headers as file's readelf.c reads them:
// class, byte order, type, machine, version and OS ABI; "dynamically linked" and the interpreter
// from the program headers; the GNU build id and ABI tag from its notes; "not stripped" when a
// symbol table section is there. Little-endian images only: the range has no others.

const TYPES: Record<number, string> = { 1: 'relocatable', 2: 'executable', 3: 'shared object', 4: 'core file' };
const MACHINES: Record<number, string> = { 3: 'Intel 80386', 40: 'ARM', 62: 'x86-64', 183: 'ARM aarch64' };
const OS_ABIS: Record<number, string> = { 0: 'SYSV', 3: 'GNU/Linux' };
const NOTE_OS: Record<number, string> = { 0: 'Linux', 1: 'Hurd', 2: 'Solaris' };

export function describeElf(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const is64 = b[4] === 2;
  const head = `ELF ${is64 ? 64 : 32}-bit ${b[5] === 2 ? 'MSB' : 'LSB'}`;
  const abi = `(${OS_ABIS[b[7] ?? 0] ?? 'unknown'})`;
  if (b[5] !== 1 || b.length < (is64 ? 64 : 52)) return `${head} ${abi}`;
  const word = (at: number) => (is64 ? Number(b.readBigUInt64LE(at)) : b.readUInt32LE(at));
  const type = b.readUInt16LE(16);
  const machine = b.readUInt16LE(18);
  const phoff = word(is64 ? 32 : 28);
  const shoff = word(is64 ? 40 : 32);
  const phentsize = b.readUInt16LE(is64 ? 54 : 42);
  const phnum = b.readUInt16LE(is64 ? 56 : 44);
  const shentsize = b.readUInt16LE(is64 ? 58 : 46);
  const shnum = b.readUInt16LE(is64 ? 60 : 48);
  const parts = [
    `${head} ${TYPES[type] ?? `unknown type ${type}`}`,
    MACHINES[machine] ?? `*unknown arch ${machine}*`,
    `version ${b[6]} ${abi}`,
  ];

  let dynamic = false;
  let interpreter: string | undefined;
  const notes: string[] = [];
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (at + phentsize > b.length) break;
    const kind = b.readUInt32LE(at);
    const offset = word(at + (is64 ? 8 : 4));
    const size = word(at + (is64 ? 32 : 16));
    if (kind === 2) dynamic = true;
    else if (kind === 3)
      interpreter = b
        .subarray(offset, offset + size)
        .toString('latin1')
        .replace(/\0.*$/s, '');
    else if (kind === 4) notes.push(...readNotes(b.subarray(offset, offset + size)));
  }
  if (type === 2 || type === 3) parts.push(`${dynamic || interpreter ? 'dynamically' : 'statically'} linked`);
  if (interpreter !== undefined) parts.push(`interpreter ${interpreter}`);
  parts.push(...notes);
  if (shnum === 0 || shoff === 0) parts.push('no section header');
  else {
    let symtab = false;
    for (let i = 0; i < shnum; i++) {
      const at = shoff + i * shentsize;
      if (at + 8 <= b.length && b.readUInt32LE(at + 4) === 2) symtab = true;
    }
    parts.push(symtab ? 'not stripped' : 'stripped');
  }
  return parts.join(', ');
}

/** The GNU notes file(1) reports: the build id, then the ABI tag. */
function readNotes(b: Buffer): string[] {
  const out: string[] = [];
  for (let at = 0; at + 12 <= b.length; ) {
    const namesz = b.readUInt32LE(at);
    const descsz = b.readUInt32LE(at + 4);
    const kind = b.readUInt32LE(at + 8);
    const name = b
      .subarray(at + 12, at + 12 + namesz)
      .toString('latin1')
      .replace(/\0+$/, '');
    const descAt = at + 12 + Math.ceil(namesz / 4) * 4;
    const desc = b.subarray(descAt, descAt + descsz);
    if (name === 'GNU' && kind === 3)
      out.push(`BuildID[${descsz === 20 ? 'sha1' : 'md5/uuid'}]=${desc.toString('hex')}`);
    if (name === 'GNU' && kind === 1 && desc.length >= 16) {
      out.push(
        `for GNU/${NOTE_OS[desc.readUInt32LE(0)] ?? '?'} ${desc.readUInt32LE(4)}.${desc.readUInt32LE(8)}.${desc.readUInt32LE(12)}`,
      );
    }
    at = descAt + Math.ceil(descsz / 4) * 4;
  }
  return out;
}
