// Which model a run's name refers to: "baseline" is built in; the names in OPENAI_MODELS go to the
// configured OpenAI-compatible endpoint. Any other name is unknown, so the client cache holds at
// most one client per configured model.
import type { ModelInfo } from '../../schema/protocol.ts';
import type { AgentModel } from './agent-model.ts';
import { BaselineModel } from './baseline-model.ts';
import { OpenAiModel } from './openai-model.ts';
import { ReplayModel } from './replay-model.ts';
import { REPLAY_MODEL } from '../../schema/run.ts';
import type { RunConfig } from '../../schema/run.ts';
import type { OpenAiSettings } from './openai-model.ts';

export class ModelRegistry {
  private readonly baseline = new BaselineModel();
  private readonly remote = new Map<string, OpenAiModel>();

  private readonly openai: OpenAiSettings & { models: string[] };

  constructor(openai: OpenAiSettings & { models: string[] }) {
    this.openai = openai;
  }

  /** The model, or undefined for a name this proxy does not offer. A verification run's comes from its config. */
  get(id: string, config?: RunConfig): AgentModel | undefined {
    if (id === this.baseline.id) return this.baseline;
    if (id === REPLAY_MODEL) return config?.replay ? new ReplayModel(config.replay) : undefined;
    if (!this.openai.models.includes(id)) return undefined;
    let model = this.remote.get(id);
    if (!model) {
      model = new OpenAiModel(id, this.openai);
      this.remote.set(id, model);
    }
    return model;
  }

  list(): ModelInfo[] {
    const reason = this.openai.apiKey ? undefined : 'OPENAI_API_KEY is not set in the proxy';
    return [
      { id: this.baseline.id, provider: 'baseline', available: true },
      ...this.openai.models.map((id): ModelInfo => ({ id, provider: 'openai', available: reason === undefined, ...(reason ? { reason } : {}) })),
    ];
  }
}
