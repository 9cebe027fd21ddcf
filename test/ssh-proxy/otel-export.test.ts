// OpenTelemetry export: with OTEL_EXPORTER_OTLP_ENDPOINT set, the proxy sends each advance call as
// spans through the official SDK to a loopback OTLP/HTTP receiver — nodes, model calls with the GenAI
// semantic conventions, commands as tool spans — all in the run's trace, with secrets redacted.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, advanceBody } from '../support/advance-client.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

type Attribute = { key: string; value: Record<string, unknown> };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attribute[];
  status?: { code?: number; message?: string };
};
type OtlpBody = { resourceSpans: { resource: { attributes: Attribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };

const API_KEY = 'sk-otel-key-that-must-never-leak';
const RUN = 'run_otel0000000000000000001';
const bodies: OtlpBody[] = [];
let receiver: Server;
let fake: FakeOpenAi;
let services: LoopbackServices;

/** The value of an OTLP attribute, whatever its type. */
const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value
    ? (value.stringValue ??
        (value.intValue === undefined ? (value.doubleValue ?? value.boolValue) : Number(value.intValue)))
    : undefined;
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json'))
        bodies.push(JSON.parse(text) as OtlpBody);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  fake = await startFakeOpenAi();
  fake.respond((request, n) =>
    request.tools
      ? toolCall('run_command', { command: `cat readme; echo ${API_KEY} ${n}` }, 'reading')
      : textReply('try again'),
  );
  services = await startLoopbackServices({
    PROXY_SLICE_MS: '60000',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: API_KEY,
    OPENAI_MODELS: 'fake-model',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    OTEL_SERVICE_NAME: 'bandit-proxy-test',
  });
});
afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('OpenTelemetry export', () => {
  it("sends a call as spans: advance → nodes → model calls and commands, in the run's trace", async () => {
    const reply = await advance(
      services,
      advanceBody(RUN, { model: 'fake-model', maxRetries: 1, budget: 2, endLevel: 0, finalAttempt: false }),
    );
    expect(reply.end.outcome).toBe('interrupted');
    // Closing the proxy flushes the batch.
    await services.close();
    const spans = bodies.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    const service = bodies[0]!.resourceSpans[0]!.resource.attributes.find((a) => a.key === 'service.name')?.value
      .stringValue;
    expect(service).toBe('bandit-proxy-test');

    const traceId = createHash('sha256').update(RUN).digest('hex').slice(0, 32);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceId]));
    const call = spans.find((s) => s.name === 'bandit.advance')!;
    expect(attr(call, 'bandit.run_id')).toBe(RUN);
    expect(attr(call, 'bandit.paused')).toBe('max_retries');

    const nodes = spans.filter((s) => s.name.startsWith('bandit.node '));
    expect(nodes.length).toBeGreaterThanOrEqual(4);
    expect(nodes.every((n) => n.parentSpanId === call.spanId)).toBe(true);
    const byId = new Map(spans.map((s) => [s.spanId, s]));

    const chats = spans.filter((s) => s.name === 'chat fake-model');
    expect(chats.length).toBe(reply.events.filter((e) => e.type === 'llm_call').length);
    for (const chat of chats) {
      expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(attr(chat, 'gen_ai.operation.name')).toBe('chat');
      expect(attr(chat, 'gen_ai.request.model')).toBe('fake-model');
      expect(attr(chat, 'gen_ai.usage.input_tokens')).toBeGreaterThan(0);
      expect(attr(chat, 'gen_ai.usage.output_tokens')).toBeGreaterThan(0);
      expect(byId.get(chat.parentSpanId!)?.name).toMatch(/^bandit\.node /);
    }

    const tools = spans.filter((s) => s.name === 'execute_tool run_command');
    expect(tools).toHaveLength(2);
    const commands = reply.events.flatMap((e) => (e.type === 'command' ? [e.command] : []));
    // The model echoed the API key: the command line in the span is redacted as the stream's is.
    expect(commands.every((c) => c.includes('[redacted]'))).toBe(true);
    expect(tools.map((t) => attr(t, 'process.command_line'))).toEqual(commands);
    expect(
      tools.every(
        (t) => attr(t, 'gen_ai.tool.name') === 'run_command' && typeof attr(t, 'process.exit.code') === 'number',
      ),
    ).toBe(true);
    for (const span of spans) expect(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano)).toBe(true);
    expect(JSON.stringify(bodies)).not.toContain(API_KEY);
  });
});
