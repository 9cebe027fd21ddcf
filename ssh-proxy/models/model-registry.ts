// Which model a run's name refers to: "baseline" and "human" are built in; every other name is a provider's model
// (`provider/model`, or a bare name from OPENAI_MODELS). Any other name is unknown, so the client
// cache holds at most one client per configured model.
import type { ModelInfo } from '../../schema/protocol.ts';
import type { AgentModel } from './agent-model.ts';
import { BaselineModel } from './baseline-model.ts';
import { HumanModel } from './human-model.ts';
import { OpenAiModel } from './openai-model.ts';
import type { CallSettings } from './openai-model.ts';
import { ReplayModel } from './replay-model.ts';
import { unavailableReason } from './providers.ts';
import type { Provider, ProviderModel } from './providers.ts';
import { HUMAN_MODEL, REPLAY_MODEL } from '../../schema/run.ts';
import type { RunConfig } from '../../schema/run.ts';

export class ModelRegistry {
  private readonly baseline = new BaselineModel();
  private readonly human = new HumanModel();
  private readonly remote = new Map<string, OpenAiModel>();
  private readonly byId = new Map<string, { model: ProviderModel; provider: Provider }>();
  private readonly providers: readonly Provider[];
  private readonly settings: CallSettings;

  constructor(providers: readonly Provider[], settings: CallSettings) {
    this.providers = providers;
    this.settings = settings;
    for (const provider of providers) for (const model of provider.models) this.byId.set(model.id, { model, provider });
  }

  /** The model, or undefined for a name this proxy does not offer. A verification run's comes from its config. */
  get(id: string, config?: RunConfig): AgentModel | undefined {
    // A paced run gets its own baseline, which takes that think time per call.
    if (id === this.baseline.id) return config?.paceMs ? new BaselineModel({ paceMs: config.paceMs }) : this.baseline;
    if (id === HUMAN_MODEL) return this.human;
    if (id === REPLAY_MODEL) return config?.replay ? new ReplayModel(config.replay) : undefined;
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    let model = this.remote.get(id);
    if (!model) {
      model = new OpenAiModel(entry.model, entry.provider, this.settings);
      this.remote.set(id, model);
    }
    return model;
  }

  /** Every model with its provider, its limit, its prices and whether it can run now (and why not). */
  list(): ModelInfo[] {
    const remote = this.providers.flatMap((p) => {
      const reason = unavailableReason(p);
      return p.models.map(
        (m): ModelInfo => ({
          id: m.id,
          provider: p.name,
          available: reason === null,
          ...(reason ? { reason } : {}),
          maxConcurrent: p.maxConcurrent,
          price: m.price,
        }),
      );
    });
    return [
      {
        id: this.baseline.id,
        provider: 'baseline',
        available: true,
        maxConcurrent: null,
        price: { input: 0, output: 0 },
      },
      // No agent, no cost, no network: a person plays; the board shows it as its own row.
      { id: HUMAN_MODEL, provider: 'human', available: true, maxConcurrent: null, price: { input: 0, output: 0 } },
      ...remote,
    ];
  }

  /** The keys of every provider: never in a line the proxy sends. */
  secrets(): string[] {
    return this.providers.map((p) => p.apiKey).filter((k): k is string => Boolean(k));
  }
}
