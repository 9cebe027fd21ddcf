// Levels 7→8 … 12→13 and 17→18: finding the password inside data — by a word next to it, by being
// the only unique line, among binary noise, base64, rot13, layers of compression, and a diff.
import { binaryNoise } from './levels-files.ts';
import { bzip2, gzipNamed, rot13, tarOf, xxdDump } from './encoders.ts';
import type { LevelBuilder } from './world.ts';

const WORDS = [
  'abandon',
  'bracket',
  'cascade',
  'dolphin',
  'ember',
  'falcon',
  'glacier',
  'harbor',
  'island',
  'jasmine',
  'kernel',
  'lantern',
  'meadow',
  'nectar',
  'orbit',
  'pebble',
  'quartz',
  'ripple',
  'saddle',
  'thistle',
  'umbra',
  'velvet',
  'willow',
  'xenon',
  'yonder',
  'zephyr',
  'anchor',
  'beacon',
  'cobalt',
  'dagger',
  'eclipse',
  'fathom',
  'garnet',
];

export function buildDataLevels(b: LevelBuilder): void {
  const owned = (n: number) => [`bandit${n + 1}`, `bandit${n}`, 0o640] as const;

  // 7 → 8: next to the word "millionth".
  const lines: string[] = [];
  for (let i = 0; i < 4000; i++) lines.push(`${b.rng.pick(WORDS)}${b.rng.int(50)}\t${b.rng.alnum(32)}`);
  lines.splice(b.rng.int(lines.length), 0, `millionth\t${b.pass(8)}`);
  b.file('/home/bandit7/data.txt', `${lines.join('\n')}\n`, ...owned(7));

  // 8 → 9: the only line that occurs once.
  const repeated: string[] = [];
  for (let i = 0; i < 100; i++) {
    const line = b.rng.alnum(32);
    for (let k = 0; k < 2 + b.rng.int(9); k++) repeated.push(line);
  }
  repeated.push(b.pass(9));
  b.file('/home/bandit8/data.txt', `${b.rng.shuffle(repeated).join('\n')}\n`, ...owned(8));

  // 9 → 10: one of the few human-readable strings, after several "=" characters.
  const chunks: Uint8Array[] = [];
  for (const text of ['========== the', '========== password', '========== is', `========== ${b.pass(10)}`]) {
    chunks.push(noiseWithout(b, 400 + b.rng.int(800), 0x3d), new TextEncoder().encode(`\n${text}\n`));
  }
  chunks.push(noiseWithout(b, 600, 0x3d));
  b.file('/home/bandit9/data.txt', concat(chunks), ...owned(9));

  // 10 → 11: base64.
  b.file(
    '/home/bandit10/data.txt',
    `${Buffer.from(`The password is ${b.pass(11)}\n`).toString('base64')}\n`,
    ...owned(10),
  );

  // 11 → 12: rot13.
  b.file('/home/bandit11/data.txt', `${rot13(`The password is ${b.pass(12)}`)}\n`, ...owned(11));

  // 12 → 13: a hexdump of a file compressed again and again.
  b.file('/home/bandit12/data.txt', xxdDump(layered(b.pass(13))), ...owned(12));

  // 17 → 18: the one line that changed between two files.
  const old = Array.from({ length: 100 }, () => b.rng.alnum(32));
  const fresh = [...old];
  fresh[b.rng.int(fresh.length)] = b.pass(18);
  b.file('/home/bandit17/passwords.old', `${old.join('\n')}\n`, ...owned(17));
  b.file('/home/bandit17/passwords.new', `${fresh.join('\n')}\n`, ...owned(17));
}

/** gzip, bzip2 and tar layers, innermost first, as `file` reveals them one at a time. */
function layered(password: string): Uint8Array {
  let data: Uint8Array = new TextEncoder().encode(`The password is ${password}\n`);
  data = gzipNamed(data, 'data9.bin');
  data = tarOf([{ name: 'data8.bin', content: data }]);
  data = bzip2(data);
  data = tarOf([{ name: 'data6.bin', content: data }]);
  data = gzipNamed(data, 'data5.bin');
  data = bzip2(data);
  data = gzipNamed(data, 'data2.bin');
  return data;
}

function noiseWithout(b: LevelBuilder, length: number, banned: number): Uint8Array {
  const bytes = binaryNoise(b, length);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === banned || bytes[i] === 0x0a) bytes[i] = 0x01;
  return bytes;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  return Buffer.concat(chunks.map((c) => Buffer.from(c)));
}
