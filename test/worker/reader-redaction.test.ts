// A viewer and a share link read a run without its passwords (docs/protocol.md#roles-and-share-links): the REST
// answers and the socket, replayed and live, carry no level password the run found, no password-shaped word and
// no private key, while an operator reads them all. A password is printed before the run proves it, so the shape
// decides, not the list of proven passwords.
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { CreatedShare, CreatedToken } from '../../schema/access.ts';
import { TOKEN_SUBPROTOCOL_PREFIX, WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import { READER_PASSWORD, redactForReader, redactText } from '../../worker/access/reader-redaction.ts';
import { createRun, eventsOf, ofType, postJson, waitForStatus } from './http.ts';

const call = (path: string, token: string) =>
  exports.default.fetch(new Request(`http://127.0.0.1${path}`, { headers: { authorization: `Bearer ${token}` } }));

async function readerTokens(runId: string): Promise<{ share: string; viewer: string }> {
  const viewer = (await (await postJson('/api/tokens', { role: 'viewer' })).json()) as CreatedToken;
  const share = (await (await postJson(`/api/runs/${runId}/shares`, {})).json()) as CreatedShare;
  return { share: share.token, viewer: viewer.token };
}

/** Every text frame a socket opened with `token` gets until the run's end event, as one string. */
async function socketText(runId: string, token: string): Promise<string[]> {
  const response = await exports.default.fetch(
    new Request(`http://127.0.0.1/api/runs/${runId}/ws?since=0`, {
      headers: {
        upgrade: 'websocket',
        'sec-websocket-protocol': `${WS_SUBPROTOCOL}, ${TOKEN_SUBPROTOCOL_PREFIX}${token}`,
      },
    }),
  );
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  const frames: string[] = [];
  ws.addEventListener('message', (e) => frames.push(e.data as string));
  ws.accept();
  for (let i = 0; i < 1500 && !frames.some((f) => f.includes('"run_completed"')); i++)
    await new Promise((r) => setTimeout(r, 10));
  ws.close(1000, 'done');
  return frames;
}

describe('what a reader who may not act sees', () => {
  it('redacts password-shaped words and private keys, and terminal bytes, in any JSON', () => {
    const password = 'Xk7PqR2mLw9ZtB4nVc8HsJ1dFg6YaE3u';
    expect(redactText(`cat readme\n${password}\n`)).toBe(`cat readme\n${READER_PASSWORD}\n`);
    // Not 32 letters and digits standing alone: kept.
    expect(redactText(`${password}x run_0mwttwzkcgphqalgd6x27up1o`)).toBe(`${password}x run_0mwttwzkcgphqalgd6x27up1o`);
    const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----';
    expect(redactText(`key: ${key} done`)).toBe('key: [REDACTED:private-key] done');
    // Right after a terminal escape sequence (grep --color, tput sgr0), which ends in a letter: still a word alone.
    expect(redactText(`\x1b[01;31m\x1b[K${password}\x1b[m\x1b[K\r\n`)).toBe(
      `\x1b[01;31m\x1b[K${READER_PASSWORD}\x1b[m\x1b[K\r\n`,
    );
    expect(redactText(`\x1b(B\x1b[m${password} x${password}`)).toBe(`\x1b(B\x1b[m${READER_PASSWORD} x${password}`);
    const chunk = { type: 'terminal_output', data: btoa(`\r\n${password}\r\n`) };
    expect(atob((redactForReader(chunk) as { data: string }).data)).toBe(`\r\n${READER_PASSWORD}\r\n`);
  });

  it('a share link and a viewer read the run without its passwords, live and replayed; an operator reads them', async () => {
    // Paced so the socket opened now watches the run live.
    const run = await createRun({ model: 'baseline', endLevel: 3, maxRetries: 1, paceMs: 40 });
    const { share, viewer } = await readerTokens(run.id);
    const [shareFrames, viewerFrames] = await Promise.all([socketText(run.id, share), socketText(run.id, viewer)]);
    await waitForStatus(run.id, 'completed', 30_000);
    const passwords = ofType(await eventsOf(run.id), 'password_found').map((e) => e.password);
    expect(passwords.length).toBeGreaterThanOrEqual(3);
    // Events arrived after the snapshot, one or more frames: the reader watched live.
    expect(shareFrames.filter((f) => f.startsWith('{"type":"event')).length).toBeGreaterThan(1);
    const operator = (await (await postJson('/api/tokens', { role: 'operator' })).json()) as CreatedToken;
    const operatorEvents = await (await call(`/api/runs/${run.id}/events`, operator.token)).text();
    for (const password of passwords) expect(operatorEvents).toContain(password);
    for (const [who, token, frames] of [
      ['share', share, shareFrames],
      ['viewer', viewer, viewerFrames],
    ] as const) {
      const rest = await Promise.all(
        ['', '/events', '/timeline', '/diagnosis'].map(async (path) => {
          const response = await call(`/api/runs/${run.id}${path}`, token);
          expect(response.status, `${who} ${path}`).toBe(200);
          return response.text();
        }),
      );
      for (const text of [...rest, ...frames])
        for (const password of passwords) expect(text, `${who} saw ${password}`).not.toContain(password);
      expect(rest[1]).toContain(READER_PASSWORD);
    }
  });
});
