// The baseline model's decisions, as a pure function of what it has seen: candidates (plain and
// decoded), haystacks skipped, a person's hint obeyed, the goal's wording followed, then exploring.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tarOf, xxdDump } from '../../practice/world/encoders.ts';
import { LOST_COMMAND_NOTE } from '../../schema/lost-command.ts';
import type { Turn } from '../../ssh-proxy/agent/bandit-state.ts';
import type { PlanInput } from '../../ssh-proxy/models/agent-model.ts';
import { decide } from '../../ssh-proxy/models/baseline-model.ts';
import { decodedReadings, rot13 } from '../../ssh-proxy/models/baseline/decoders.ts';
import { quotePath } from '../../ssh-proxy/models/baseline/shell-quote.ts';

const PW = 'Abcdefghijklmnopqrstuvwxyz012345';
const OTHER = 'Zyxwvutsrqponmlkjihgfedcba987654';

const ran = (command: string, output: string): Turn => ({
  kind: 'command',
  callId: 'c',
  thinking: '',
  command,
  output,
  exitCode: 0,
});
const input = (patch: Partial<PlanInput> = {}): PlanInput => ({
  level: 3,
  goal: 'Find it.',
  currentPassword: 'Current0000000000000000000000000',
  lessons: [],
  history: [],
  attempt: 1,
  budgetLeft: 10,
  tried: [],
  ...patch,
});

describe('baseline policy', () => {
  it('submits a password-shaped token from the newest output, never a refused one or the current password', () => {
    expect(decide(input({ history: [ran('cat a', `x ${PW} y`)] }))).toMatchObject({
      kind: 'submit_password',
      password: PW,
    });
    expect(decide(input({ history: [ran('cat a', `${PW} ${OTHER}`)], tried: [PW] }))).toMatchObject({
      password: OTHER,
    });
    expect(decide(input({ history: [ran('cat a', input().currentPassword)] }))).toMatchObject({ kind: 'run_command' });
  });

  it('does not submit from a haystack of many candidates', () => {
    const haystack = Array.from({ length: 50 }, (_, i) => `${PW.slice(0, 30)}${String(i).padStart(2, '0')}`).join('\n');
    expect(decide(input({ history: [ran('cat data.txt', haystack)] })).kind).toBe('run_command');
  });

  it('decodes base64, rot13 and an xxd dump of nested gzip/tar before looking for passwords', () => {
    expect(decodedReadings(Buffer.from(`The password is ${PW}\n`).toString('base64')).join()).toContain(PW);
    expect(decodedReadings(rot13(`The password is ${PW}`)).join()).toContain(PW);
    const nested = gzipSync(tarOf([{ name: 'inner.bin', content: gzipSync(`The password is ${PW}\n`) }]));
    expect(decodedReadings(xxdDump(nested)).join()).toContain(PW);
    // Plain English stays as it is: no rot13 reading that scores worse.
    expect(decodedReadings('The password is in the file')).toEqual([]);
  });

  it('runs the commands a person names in backticks or after "try:" first', () => {
    const lessons = [
      {
        text: 'use the key: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`',
        source: 'user',
        level: 13,
      } as const,
    ];
    expect(decide(input({ lessons }))).toMatchObject({
      kind: 'run_command',
      command: 'ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14',
    });
    const said = [{ text: 'try: cat /tmp/notes', source: 'user', level: 3 } as const];
    expect(decide(input({ lessons: said }))).toMatchObject({ command: 'cat /tmp/notes' });
  });

  it("follows the goal's wording with general shell know-how", () => {
    const first = (goal: string) => (decide(input({ goal })) as { command: string }).command;
    expect(first('The password is in a file called - in the home directory.')).toBe('cat ./-');
    expect(first('The password is in a file called "spaces in this filename" in the home directory.')).toBe(
      "cat 'spaces in this filename'",
    );
    expect(
      first(
        'The password is stored somewhere on the server in a file owned by user bandit7, owned by group bandit6, and 33 bytes in size.',
      ),
    ).toBe('find / -type f -user bandit7 -group bandit6 -size 33c 2>/dev/null');
    expect(first('The password is in data.txt, next to the word millionth.')).toBe('grep millionth data.txt');
  });

  it('reads what a listing, `file` or `find` points at, then explores, then gives up', () => {
    const listing = [
      'total 4',
      'drwxr-xr-x 1 root root 0 Nov 21 22:49 .',
      '-rw-r----- 1 bandit4 bandit3 33 Nov 21 22:49 ...Hiding-From-You',
    ].join('\n');
    expect(decide(input({ history: [ran('ls -la inhere', listing)] }))).toMatchObject({
      command: 'cat inhere/...Hiding-From-You',
    });
    expect(
      decide(input({ history: [ran('file ./inhere/*', './inhere/-file00: data\n./inhere/-file03: ASCII text')] })),
    ).toMatchObject({ command: 'cat ./inhere/-file03' });
    expect(decide(input())).toMatchObject({ command: 'ls -la' });
    expect(decide(input({ history: [ran('ls -la', 'total 0')] }))).toMatchObject({ kind: 'give_up' });
    expect(decide(input({ attempt: 2, history: [ran('ls -la', 'total 0')] }))).toMatchObject({
      command: 'find . -type f',
    });
  });

  it('runs a command again when its output was lost with a proxy, and only then', () => {
    const lost = `\n[stderr]\n${LOST_COMMAND_NOTE}`;
    expect(decide(input({ history: [ran('ls -la', lost)] }))).toMatchObject({ command: 'ls -la' });
    expect(decide(input({ history: [ran('ls -la', lost), ran('ls -la', 'total 0')] }))).toMatchObject({
      kind: 'give_up',
    });
  });

  it('quotes paths the way a careful person types them', () => {
    expect(quotePath('-')).toBe('./-');
    expect(quotePath('a b')).toBe("'a b'");
    expect(quotePath("it's")).toBe(`'it'\\''s'`);
    expect(quotePath('inhere/.hidden')).toBe('inhere/.hidden');
  });
});
