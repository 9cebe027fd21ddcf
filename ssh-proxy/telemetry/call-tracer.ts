// One /v1/advance call as spans: `bandit.advance` (the call) → `bandit.node <name>` (each graph node)
// → `chat <model>` (each model call, GenAI semantic conventions) and `execute_tool run_command` (each
// command). Node events come after the node's own calls and commands, so those wait until their node
// is known and are then started with their recorded times. Every span of a run shares one trace id,
// derived from the run id, so a backend shows a run's calls together.
import { createHash } from 'node:crypto';
import { context, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import type { ProxyEvent } from '../../schema/protocol.ts';
import type { Redactor } from '../redactor.ts';

type Child = {
  name: string;
  start: number;
  end: number;
  kind: SpanKind;
  attributes: Record<string, string | number | boolean>;
  error: string | null;
};

export class CallTracer {
  private readonly tracer: Tracer;
  private readonly redactor: Redactor;
  private readonly call: Span;
  private readonly pending: Child[] = [];
  private readonly commands = new Map<string, { command: string; start: number }>();

  constructor(tracer: Tracer, runId: string, redactor: Redactor) {
    this.tracer = tracer;
    this.redactor = redactor;
    const id = createHash('sha256').update(runId).digest('hex');
    // The run itself is the remote parent: its trace id and span id come from the run id.
    const parent = trace.setSpanContext(context.active(), {
      traceId: id.slice(0, 32),
      spanId: id.slice(32, 48),
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    this.call = tracer.startSpan(
      'bandit.advance',
      { kind: SpanKind.SERVER, attributes: { 'bandit.run_id': runId, 'session.id': runId } },
      parent,
    );
  }

  private text(value: string): string {
    return JSON.parse(this.redactor.json(JSON.stringify(value))) as string;
  }

  observe(event: ProxyEvent): void {
    const at = Date.parse(event.ts);
    switch (event.type) {
      case 'llm_call':
        this.pending.push({
          name: `chat ${event.model}`,
          start: at - event.latencyMs,
          end: at,
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'openai',
            'gen_ai.request.model': event.model,
            'gen_ai.usage.input_tokens': event.promptTokens,
            'gen_ai.usage.output_tokens': event.completionTokens,
            'bandit.stage': event.stage,
            'bandit.level': event.level,
            'bandit.call_id': event.callId,
            ...(event.costUsd === null ? {} : { 'bandit.cost_usd': event.costUsd }),
            ...(event.errorClass ? { 'error.type': event.errorClass } : {}),
          },
          error: event.errorClass,
        });
        return;
      case 'command':
        this.commands.set(event.commandId, { command: event.command, start: at });
        return;
      case 'output': {
        const started = this.commands.get(event.commandId);
        this.commands.delete(event.commandId);
        this.pending.push({
          name: 'execute_tool run_command',
          start: started?.start ?? at - event.durationMs,
          end: at,
          kind: SpanKind.INTERNAL,
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': 'run_command',
            'gen_ai.tool.call.id': event.commandId,
            'process.command_line': this.text(started?.command ?? ''),
            ...(event.exitCode === null ? {} : { 'process.exit.code': event.exitCode }),
            'bandit.level': event.level,
            'bandit.output_truncated': event.truncated,
          },
          error: event.exitCode === null ? 'timeout' : null,
        });
        return;
      }
      case 'node': {
        const start = Date.parse(event.startedAt);
        const node = this.tracer.startSpan(
          `bandit.node ${event.name}`,
          {
            startTime: start,
            attributes: { 'bandit.node': event.name, 'bandit.level': event.level, 'bandit.node.status': event.status },
          },
          trace.setSpan(context.active(), this.call),
        );
        if (event.status === 'error')
          node.setStatus({ code: SpanStatusCode.ERROR, message: this.text(event.error ?? 'node failed') });
        const inNode = trace.setSpan(context.active(), node);
        for (const child of this.pending.splice(0)) {
          const span = this.tracer.startSpan(
            child.name,
            { kind: child.kind, startTime: child.start, attributes: child.attributes },
            inNode,
          );
          if (child.error) span.setStatus({ code: SpanStatusCode.ERROR, message: child.error });
          span.end(child.end);
        }
        node.end(start + event.durationMs);
        return;
      }
      case 'level_complete':
        this.call.addEvent('level_complete', { 'bandit.level': event.level }, at);
        return;
      case 'user_action_required':
        this.call.setAttribute('bandit.paused', event.reason);
        return;
      case 'run_complete':
        this.call.setAttribute('bandit.run_status', event.status);
        return;
      default:
        return;
    }
  }

  /** Ends the call's span with how the call ended. */
  end(outcome: string, error: string | null): void {
    this.call.setAttribute('bandit.outcome', outcome);
    if (error) this.call.setStatus({ code: SpanStatusCode.ERROR, message: this.text(error) });
    this.call.end();
  }
}
