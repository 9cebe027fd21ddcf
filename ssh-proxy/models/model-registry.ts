// Which model a run's name refers to: "baseline" is built in; any other name goes to the
// configured OpenAI-compatible endpoint. Lists what the UI may offer.
import type { ModelInfo } from '../../schema/protocol.ts';
import type { AgentModel } from './agent-model.ts';
import { BaselineModel } from './baseline-model.ts';
import { OpenAiModel } from './openai-model.ts';
import type { OpenAiSettings } from './openai-model.ts';

export class ModelRegistry {
  private readonly baseline = new BaselineModel();
  private readonly remote = new Map<string, OpenAiModel>();

  private readonly openai: OpenAiSettings & { models: string[] };

  constructor(openai: OpenAiSettings & { models: string[] }) {
    this.openai = openai;
  }

  get(id: string): AgentModel {
    if (id === this.baseline.id) return this.baseline;
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
