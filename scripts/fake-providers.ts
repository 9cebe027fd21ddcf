// Two fake OpenAI-compatible endpoints on loopback, for trying batches, streamed thinking and the
// board by hand with no LLM and no network. Each streams its answers (server-sent events); the
// moves come from the offline baseline policy, so the models really play the practice range.
// "quick" thinks fast and is priced like a small model, "ponder" thinks slowly and costs more.
//
//   node scripts/fake-providers.ts            # writes .state/fake-providers.json and keeps serving
//   PROVIDERS_FILE=.state/fake-providers.json npm start     # in another terminal
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startFakeOpenAi } from '../test/support/fake-openai.ts';
import { baselineResponder } from './fake-llm/baseline-responder.ts';

const out = process.env.FAKE_PROVIDERS_FILE ?? join(process.env.STATE_DIR ?? '.state', 'fake-providers.json');
const quick = await startFakeOpenAi();
quick.respond(baselineResponder({ pieceDelayMs: 15, persona: 'Quick' }));
const ponder = await startFakeOpenAi();
ponder.respond(baselineResponder({ pieceDelayMs: 120, persona: 'Ponder' }));

const providers = {
  providers: [
    {
      name: 'quick',
      baseUrl: quick.baseUrl,
      apiKeyEnv: 'QUICK_API_KEY',
      maxConcurrent: 3,
      models: [
        { name: 'mini', price: { input: 0.15, output: 0.6 } },
        { name: 'nano', price: { input: 0.05, output: 0.2 } },
      ],
    },
    {
      name: 'ponder',
      baseUrl: ponder.baseUrl,
      maxConcurrent: 1,
      models: [{ name: 'deep', price: { input: 3, output: 15 } }],
    },
  ],
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(providers, null, 2)}\n`);
console.log(`fake providers: quick at ${quick.baseUrl}, ponder at ${ponder.baseUrl}`);
console.log(`providers file: ${out}`);
console.log(`start the stack with:  QUICK_API_KEY=fake PROVIDERS_FILE=${out} npm start`);
const stop = () => void Promise.all([quick.close(), ponder.close()]).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
