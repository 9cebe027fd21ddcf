// Levels 0→1 … 6→7: reading files with awkward names, hidden files, telling text from data, and
// finding files by size, owner and permissions.
import type { LevelBuilder } from './world.ts';

const TEXT_WORDS = [
  'lorem',
  'ipsum',
  'dolor',
  'sit',
  'amet',
  'range',
  'shell',
  'level',
  'bandit',
  'file',
  'data',
  'noise',
];

/** Bytes that `file` calls "data": control and high bytes, never valid text. */
export function binaryNoise(b: LevelBuilder, length: number): Uint8Array {
  const out = b.rng.bytes(length);
  out[0] = 0x00;
  for (let i = 1; i < out.length; i += 7) out[i] = 0x80 + (out[i]! % 0x40);
  return out;
}

function prose(b: LevelBuilder, length: number): string {
  let s = '';
  while (s.length < length) s += `${b.rng.pick(TEXT_WORDS)}${b.rng.int(9) === 0 ? '\n' : ' '}`;
  return `${s.slice(0, length - 1)}\n`;
}

export function buildBasicLevels(b: LevelBuilder): void {
  const owned = (n: number) => [`bandit${n + 1}`, `bandit${n}`, 0o640] as const;

  // 0 → 1: a readme in the home directory.
  b.file(
    '/home/bandit0/readme',
    `Welcome to the practice range. This file is the first step.\n\nThe password you are looking for is: ${b.pass(1)}\n\nLog in as bandit1 with it: ssh -p 2220 bandit1@127.0.0.1\n`,
    ...owned(0),
  );

  // 1 → 2: a file called "-".
  b.file('/home/bandit1/-', `${b.pass(2)}\n`, ...owned(1));

  // 2 → 3: spaces in the name.
  b.file('/home/bandit2/spaces in this filename', `${b.pass(3)}\n`, ...owned(2));

  // 3 → 4: a hidden file inside "inhere".
  b.dir('/home/bandit3/inhere');
  b.file('/home/bandit3/inhere/...Hiding-From-You', `${b.pass(4)}\n`, ...owned(3));

  // 4 → 5: the only human-readable file among ten.
  b.dir('/home/bandit4/inhere');
  const readable = b.rng.int(10);
  for (let i = 0; i < 10; i++) {
    const name = `/home/bandit4/inhere/-file0${i}`;
    b.file(name, i === readable ? `${b.pass(5)}\n` : binaryNoise(b, 33), ...owned(4));
  }

  buildLevel5(b);
  buildLevel6(b);
}

/** 5 → 6: human-readable, 1033 bytes, not executable — one file among many decoys. */
function buildLevel5(b: LevelBuilder): void {
  b.dir('/home/bandit5/inhere', 'root', 'bandit5', 0o750);
  const names = [
    '-file1',
    '-file2',
    '-file3',
    '.file1',
    '.file2',
    '.file3',
    'spaces file1',
    'spaces file2',
    'spaces file3',
  ];
  const target = { dir: b.rng.int(20), name: b.rng.pick(names) };
  const decoyExec = { dir: (target.dir + 7) % 20, name: b.rng.pick(names) };
  const decoyBinary = { dir: (target.dir + 13) % 20, name: b.rng.pick(names) };
  for (let d = 0; d < 20; d++) {
    const dir = `/home/bandit5/inhere/maybehere${String(d).padStart(2, '0')}`;
    b.dir(dir, 'root', 'bandit5', 0o750);
    for (const name of names) {
      const path = `${dir}/${name}`;
      if (d === target.dir && name === target.name) {
        b.file(path, `${`${b.pass(6)}\n`.padEnd(1032, ' ')}\n`, 'root', 'bandit5', 0o640);
      } else if (d === decoyExec.dir && name === decoyExec.name) {
        b.file(path, prose(b, 1033), 'root', 'bandit5', 0o750);
      } else if (d === decoyBinary.dir && name === decoyBinary.name) {
        // Binary, and one byte past 1033: on the real server `find … -size 1033c ! -executable`
        // prints the password alone. The same draws as ever, so that seeds keep their world.
        b.file(path, Uint8Array.from([...binaryNoise(b, 1033), 0x0a]), 'root', 'bandit5', 0o640);
      } else {
        let size = 1000 + b.rng.int(9000);
        if (size === 1033) size++;
        const executable = b.rng.int(3) === 0;
        b.file(
          path,
          b.rng.int(2) ? prose(b, size) : binaryNoise(b, size),
          'root',
          'bandit5',
          executable ? 0o750 : 0o640,
        );
      }
    }
  }
}

/** 6 → 7: somewhere on the server, owned by bandit7, group bandit6, 33 bytes. */
function buildLevel6(b: LevelBuilder): void {
  b.dir('/var/lib/dpkg');
  b.dir('/var/lib/dpkg/info');
  for (const pkg of [
    'bash',
    'coreutils',
    'openssh-server',
    'netcat',
    'openssl',
    'findutils',
    'grep',
    'gzip',
    'bzip2',
    'tar',
  ]) {
    b.file(`/var/lib/dpkg/info/${pkg}.list`, `/usr/bin/${pkg}\n/usr/share/doc/${pkg}\n`, 'root', 'root', 0o644);
    b.file(
      `/var/lib/dpkg/info/${pkg}.md5sums`,
      `${b.rng.alnum(32).toLowerCase()}  usr/bin/${pkg}\n`,
      'root',
      'root',
      0o644,
    );
  }
  b.file('/var/lib/dpkg/info/bandit7.password', `${b.pass(7)}\n`, 'bandit7', 'bandit6', 0o640);
  // Decoys that match two of the three conditions, and places a search cannot enter.
  b.dir('/var/log/bandit', 'root', 'root', 0o755);
  b.file('/var/log/bandit/bandit7.session', `${b.rng.alnum(32)}\n`, 'bandit7', 'root', 0o640);
  b.file('/var/log/bandit/bandit6.session', `${b.rng.alnum(32)}\n`, 'root', 'bandit6', 0o640);
  b.file('/usr/share/bandit7.hint', `${b.rng.alnum(32)}\n\n`, 'bandit7', 'bandit6', 0o640);
  b.dir('/var/cache', 'root', 'root', 0o755);
  b.dir('/var/cache/private', 'root', 'root', 0o700);
  b.file('/var/cache/private/secret', `${b.rng.alnum(32)}\n`, 'root', 'root', 0o600);
  b.dir('/etc/ssl', 'root', 'root', 0o755);
  b.dir('/etc/ssl/private', 'root', 'root', 0o700);
}
