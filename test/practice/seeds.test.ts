// For any seed, every level's description picks out exactly one file (or service), and that one
// leads to the next password: decoys never also match, and no level is left unsolvable. Levels
// 27→31 keep their passwords in git repositories built when the range starts; the level tests over
// SSH play those.
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import Bunzip from 'seek-bzip';
import { describe, expect, it } from 'vitest';
import { PIN_PORT } from '../../practice/world/levels-cron.ts';
import { SCAN_RANGE } from '../../practice/world/levels-network.ts';
import { buildWorld } from '../../practice/world/world.ts';
import type { World, WorldNode } from '../../practice/world/world.ts';

const bytesOf = (node: WorldNode) => Buffer.from(node.content ?? '');
const textOf = (node: WorldNode) => bytesOf(node).toString('latin1');
/** What `file` calls text: printable ASCII and whitespace only. */
const isText = (node: WorldNode) => !/[^\t\n\r\x20-\x7e]/.test(textOf(node));
const filesUnder = (world: World, dir: string) =>
  world.nodes.filter((n) => n.kind === 'file' && n.path.startsWith(`${dir}/`));
const file = (world: World, path: string) => {
  const node = world.nodes.find((n) => n.path === path);
  if (!node) throw new Error(`${path} is missing`);
  return node;
};

/** The one item of `matches`; throws with the list when there are none or several. */
function exactlyOne<T>(level: number, matches: T[], describeItem: (t: T) => string): T {
  if (matches.length !== 1)
    throw new Error(
      `level ${level}: the description matches ${matches.length}: ${matches.map(describeItem).join(', ')}`,
    );
  return matches[0]!;
}

/** Undoes level 12's hexdump and its layers of gzip, bzip2 and tar. */
function unpackLevel12(dump: string): string {
  let data = Buffer.from(
    dump
      .split('\n')
      .map((line) => line.slice(10, 49).replace(/\s/g, ''))
      .join(''),
    'hex',
  );
  for (let layer = 0; layer < 20; layer++) {
    if (data[0] === 0x1f && data[1] === 0x8b) data = gunzipSync(data);
    else if (data.subarray(0, 3).toString() === 'BZh') data = Buffer.from(Bunzip.decode(data));
    else if (data.subarray(257, 262).toString() === 'ustar')
      data = data.subarray(512, 512 + parseInt(data.subarray(124, 136).toString().trim(), 8));
    else return data.toString('latin1');
  }
  throw new Error('level 12: more than 20 layers');
}

function checkWorld(world: World): void {
  const pass = world.passwords;
  const contains = (level: number, text: string) => {
    if (!text.includes(pass[level + 1]!))
      throw new Error(`level ${level}: the match does not hold bandit${level + 1}'s password`);
  };
  contains(0, textOf(file(world, '/home/bandit0/readme')));
  contains(1, textOf(file(world, '/home/bandit1/-')));
  contains(2, textOf(file(world, '/home/bandit2/spaces in this filename')));
  contains(3, textOf(exactlyOne(3, filesUnder(world, '/home/bandit3/inhere'), (n) => n.path)));
  contains(4, textOf(exactlyOne(4, filesUnder(world, '/home/bandit4/inhere').filter(isText), (n) => n.path)));
  const level5 = filesUnder(world, '/home/bandit5/inhere').filter(
    (n) => isText(n) && bytesOf(n).length === 1033 && (n.mode & 0o111) === 0,
  );
  contains(5, textOf(exactlyOne(5, level5, (n) => n.path)));
  const level6 = world.nodes.filter(
    (n) => n.kind === 'file' && n.owner === 'bandit7' && n.group === 'bandit6' && bytesOf(n).length === 33,
  );
  contains(6, textOf(exactlyOne(6, level6, (n) => n.path)));
  const lines7 = textOf(file(world, '/home/bandit7/data.txt')).split('\n');
  contains(
    7,
    exactlyOne(
      7,
      lines7.filter((l) => /\bmillionth\b/.test(l)),
      (l) => l,
    ),
  );
  const lines8 = textOf(file(world, '/home/bandit8/data.txt')).split('\n').filter(Boolean);
  const counts = new Map<string, number>();
  for (const line of lines8) counts.set(line, (counts.get(line) ?? 0) + 1);
  contains(
    8,
    exactlyOne(
      8,
      [...counts].filter(([, c]) => c === 1),
      ([l]) => l,
    )[0],
  );
  // strings(1): runs of at least 4 printable characters; the password follows several "=".
  const strings9 = textOf(file(world, '/home/bandit9/data.txt')).match(/[\x20-\x7e\t]{4,}/g) ?? [];
  contains(
    9,
    exactlyOne(
      9,
      strings9.filter((s) => /^={2,}\s*\S{32}$/.test(s)),
      (s) => s,
    ),
  );
  contains(10, Buffer.from(textOf(file(world, '/home/bandit10/data.txt')), 'base64').toString());
  contains(
    11,
    textOf(file(world, '/home/bandit11/data.txt')).replace(/[a-z]/gi, (c) =>
      String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)),
    ),
  );
  contains(12, unpackLevel12(textOf(file(world, '/home/bandit12/data.txt'))));
  const key14 = world.keys.get('bandit14');
  if (textOf(file(world, '/home/bandit13/sshkey.private')) !== key14?.privateKey)
    throw new Error('level 13: the key does not open bandit14');
  contains(14, world.services.get(30000)!.answer(`${pass[14]}\n`));
  contains(15, world.services.get(30001)!.answer(`${pass[15]}\n`));
  const scanned = [...world.services.values()].filter((s) => s.port >= SCAN_RANGE[0] && s.port <= SCAN_RANGE[1]);
  const keyed = exactlyOne(
    16,
    scanned.filter((s) => s.tls && s.answer(`${pass[16]}\n`).includes('PRIVATE KEY')),
    (s) => String(s.port),
  );
  if (!keyed.answer(`${pass[16]}\n`).includes(world.keys.get('bandit17')!.privateKey))
    throw new Error('level 16: the key does not open bandit17');
  const old17 = new Set(textOf(file(world, '/home/bandit17/passwords.old')).split('\n'));
  const changed = textOf(file(world, '/home/bandit17/passwords.new'))
    .split('\n')
    .filter((l) => !old17.has(l));
  contains(
    17,
    exactlyOne(17, changed, (l) => l),
  );
  contains(18, textOf(file(world, '/home/bandit18/readme')));
  // 19, 20, 26 and 32: the setuid helpers run as the next user.
  for (const [path, owner, program] of [
    ['/home/bandit19/bandit20-do', 'bandit20', 'run-as'],
    ['/home/bandit20/suconnect', 'bandit21', 'suconnect'],
    ['/home/bandit26/bandit27-do', 'bandit27', 'run-as'],
    ['/home/bandit32/uppershell', 'bandit33', 'uppershell'],
  ] as const) {
    const helper = file(world, path);
    if (helper.owner !== owner || (helper.mode & 0o4000) === 0 || helper.program !== program)
      throw new Error(`${path} does not run as ${owner}`);
  }
  // 21 → 23: each cron job is the next user's, and its script reads that user's password.
  for (const next of ['bandit22', 'bandit23', 'bandit24']) {
    if (!textOf(file(world, `/etc/cron.d/cronjob_${next}`)).includes(` ${next} /usr/bin/cronjob_${next}.sh`))
      throw new Error(`cron: no job runs as ${next}`);
  }
  if (!textOf(file(world, '/usr/bin/cronjob_bandit22.sh')).includes('cat /etc/bandit_pass/bandit22 > /tmp/'))
    throw new Error('level 21: the script does not copy the password');
  if (!/md5sum/.test(textOf(file(world, '/usr/bin/cronjob_bandit23.sh'))))
    throw new Error('level 22: the script does not name its file by md5sum');
  const spool = file(world, '/var/spool/bandit24/foo');
  if ((spool.mode & 0o002) === 0) throw new Error('level 23: bandit23 cannot leave a script in the spool');
  // 24: a brute force over the 10,000 codes in one connection, as players write it, gets the password once.
  const tries = Array.from({ length: 10_000 }, (_, pin) => `${pass[24]} ${String(pin).padStart(4, '0')}\n`).join('');
  const answer = world.services.get(PIN_PORT)!.answer(tries);
  if (answer.split('Correct!').length !== 2) throw new Error('level 24: the brute force did not get one Correct!');
  contains(24, answer);
  // 25: the key in bandit25's home opens bandit26.
  if (textOf(file(world, '/home/bandit25/bandit26.sshkey')) !== world.keys.get('bandit26')?.privateKey)
    throw new Error('level 25: the key does not open bandit26');
  for (let n = 1; n < pass.length; n++) {
    if (textOf(file(world, `/etc/bandit_pass/bandit${n}`)) !== `${pass[n]}\n`)
      throw new Error(`/etc/bandit_pass/bandit${n} is wrong`);
  }
  if (new Set(pass).size !== pass.length) throw new Error('two levels share a password');
}

describe('worlds from random seeds', () => {
  it('match each level description exactly once and reach every password, for 1,000 seeds', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (seed) => {
        checkWorld(buildWorld(seed));
      }),
      { numRuns: 1_000 },
    );
  }, 180_000);

  it('catches a decoy that matches a description (the check can fail)', () => {
    const world = buildWorld('decoy');
    world.nodes.push({
      path: '/tmp/decoy',
      kind: 'file',
      content: `${'x'.repeat(32)}\n`,
      owner: 'bandit7',
      group: 'bandit6',
      mode: 0o640,
    });
    expect(() => checkWorld(world)).toThrow(/level 6: the description matches 2/);
  });
});
