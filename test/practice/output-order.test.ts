// A command line's two streams keep the order they were written in, and the output limit cuts each
// stream on its own without losing that order. (Order against real bash: the differential test.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capOutput, inOrder } from '../../practice/exec/output-chunks.ts';
import type { OutputChunk } from '../../practice/exec/shell-job.ts';
import type { RunningRange } from '../../practice/server.ts';
import { sshExecInOrder } from '../support/ssh-client.ts';
import { startTestRange } from '../support/test-range.ts';

const LIMIT = 1024;
let range: RunningRange;
beforeAll(async () => {
  range = await startTestRange('output-order', { limits: { maxOutputBytes: LIMIT } });
});
afterAll(() => range.close());

const chunk = (stream: OutputChunk['stream'], text: string): OutputChunk => ({ stream, bytes: Buffer.from(text) });
const text = (chunks: OutputChunk[]) => chunks.map((c) => `${c.stream}:${Buffer.from(c.bytes).toString()}`);

describe('output in order', () => {
  it('cuts each stream at the limit with one note, and keeps the other stream and the order', () => {
    const cut = capOutput(
      [
        chunk('stdout', 'abc'),
        chunk('stderr', 'E1'),
        chunk('stdout', 'defg'),
        chunk('stderr', 'E2'),
        chunk('stdout', 'h'),
      ],
      5,
      '|cut',
    );
    expect(text(cut)).toEqual(['stdout:abc', 'stderr:E1', 'stdout:de|cut', 'stderr:E2']);
  });

  it("writes a result without an order (the range's own messages) as stdout, then stderr", () => {
    expect(text(inOrder({ stdout: Buffer.from('out'), stderr: 'err' }))).toEqual(['stdout:out', 'stderr:err']);
    expect(text(inOrder({ stdout: Buffer.from(''), stderr: 'err', output: [chunk('stderr', 'x')] }))).toEqual([
      'stderr:x',
    ]);
  });

  it('over SSH: an error before a long output, the output cut at the limit, an error after it', async () => {
    const login = { port: range.port, username: 'bandit0', password: 'bandit0' };
    const { merged, code } = await sshExecInOrder(login, 'ls first; seq 1 500; ls second; echo unseen');
    const seq = Array.from({ length: 500 }, (_, i) => `${i + 1}\n`).join('');
    expect(merged).toBe(
      `ls: cannot access 'first': No such file or directory\n${seq.slice(0, LIMIT)}\n[practice range: output cut at ${LIMIT} bytes]\nls: cannot access 'second': No such file or directory\n`,
    );
    expect(code).toBe(0);
  });
});
