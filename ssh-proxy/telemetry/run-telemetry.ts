// OpenTelemetry export of runs, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: one tracer provider
// for the proxy, sending OTLP/HTTP to `<endpoint>/v1/traces` in batches. Each /v1/advance call
// gets a CallTracer that turns the call's events into spans.
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Redactor } from '../redactor.ts';
import { CallTracer } from './call-tracer.ts';

export class RunTelemetry {
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;

  constructor(endpoint: string, serviceName: string) {
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': serviceName }),
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
          scheduledDelayMillis: 1_000,
        }),
      ],
    });
    // Not registered globally: nothing else in the proxy is traced, and tests run several proxies.
    this.tracer = this.provider.getTracer('bandit-runner', '1');
  }

  /** A tracer for one /v1/advance call; secrets are redacted from every attribute. */
  forCall(runId: string, redactor: Redactor): CallTracer {
    return new CallTracer(this.tracer, runId, redactor);
  }

  /** Sends what is buffered and stops. */
  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}
