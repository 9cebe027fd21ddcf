// A call gives its run back however it ends: the graph finishing, the caller hanging up, or a throw
// before the graph starts (here a shell that cannot be made), which once left the run busy for good.
import { describe, expect, it } from 'vitest';
import { buildBanditGraph } from '../../ssh-proxy/agent/bandit-graph.ts';
import { initialBanditState } from '../../ssh-proxy/agent/bandit-state.ts';
import type { CallDeps } from '../../ssh-proxy/call-stream.ts';
import { callStream } from '../../ssh-proxy/call-stream.ts';
import { CallsInProgress } from '../../ssh-proxy/calls-in-progress.ts';
import type { AgentModel } from '../../ssh-proxy/models/agent-model.ts';
import type { ModelRegistry } from '../../ssh-proxy/models/model-registry.ts';
import type { SessionPool } from '../../ssh-proxy/ssh/session-pool.ts';
import type { GameTarget } from '../../ssh-proxy/targets/target.ts';
import { advanceBody } from '../support/advance-client.ts';

const RUN = 'run_callstream00000000000000';

function depsWith(pool: Partial<SessionPool>): CallDeps {
  return {
    graph: buildBanditGraph(),
    models: {} as ModelRegistry,
    pool: pool as SessionPool,
    sliceMs: 1_000,
    callMaxMs: 5_000,
    stepLimit: 10,
    calls: new CallsInProgress(),
    secrets: [],
    telemetry: null,
    liveMs: 100,
  };
}

describe('callStream', () => {
  it('releases the run when setting up the call throws, so the next call is not refused as busy', async () => {
    const deps = depsWith({
      shellFor: () => {
        throw new Error('no shell for you');
      },
    });
    const request = advanceBody(RUN, { model: 'baseline' });
    expect(deps.calls.claim(RUN)).toBe(true);
    const model = {} as AgentModel;
    const stream = callStream(
      request,
      {} as GameTarget,
      { model, knowledge: model },
      { state: initialBanditState(request.config, Date.now()) },
      deps,
      new AbortController().signal,
    );
    await expect(stream.getReader().read()).rejects.toThrow('no shell for you');
    expect(deps.calls.has(RUN)).toBe(false);
    expect(deps.calls.claim(RUN)).toBe(true);
  });
});
