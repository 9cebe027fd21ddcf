// The graph engine on a toy graph: edges and routers, a checkpoint after every node, interrupt and
// Command({ resume }), the step limit, the time slice, the abort signal, and checkpoint loading.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Command } from '../../ssh-proxy/engine/command.ts';
import type { CheckpointFit, RunOptions } from '../../ssh-proxy/engine/compiled-graph.ts';
import { interrupt } from '../../ssh-proxy/engine/interrupt.ts';
import { StateGraph } from '../../ssh-proxy/engine/state-graph.ts';
import type { GraphCheckpoint, NodeRecord } from '../../ssh-proxy/engine/types.ts';
import { END, START } from '../../ssh-proxy/engine/types.ts';

const stateSchema = z.object({ n: z.number(), log: z.array(z.string()) });
type State = z.infer<typeof stateSchema>;
type Ctx = { limit: number };
/** The toy's interrupt and its answer are typed, as the Bandit graph's are: the caller validated them. */
type Answer = 'again' | 'stop';
type Question = { question: string };

/** count until n reaches ctx.limit, then ask a person; their answer is logged and the graph ends. */
function toyGraph(onCount?: (signal: AbortSignal) => Promise<void>, fit?: CheckpointFit<State, Ctx, Answer, Question>) {
  return new StateGraph<State, Ctx, Answer, Question>(stateSchema, 1)
    .addNode('count', async (s, ctx) => {
      await onCount?.(ctx.signal);
      return { n: s.n + 1, log: [...s.log, `count ${s.n + 1}`] };
    })
    .addNode(
      'ask',
      (s, ctx) => {
        if (ctx.resume === undefined) return interrupt({ question: `n is ${s.n}; go on?` });
        const answer: Answer = ctx.resume;
        return new Command({
          update: { log: [...s.log, `answer ${answer}`] },
          goto: ctx.resume === 'again' ? 'count' : END,
        });
      },
      { ends: ['count', END] },
    )
    .addEdge(START, 'count')
    .addConditionalEdges('count', (s, ctx) => (s.n < ctx.limit ? 'count' : 'ask'), ['count', 'ask'])
    .compile({ fit });
}

function runOptions(overrides: Partial<RunOptions<State, Ctx, Answer, Question>> = {}) {
  const checkpoints: GraphCheckpoint<State, Question>[] = [];
  const nodes: NodeRecord[] = [];
  const options: RunOptions<State, Ctx, Answer, Question> = {
    from: { state: { n: 0, log: [] } },
    ctx: { limit: 3 },
    signal: new AbortController().signal,
    stepLimit: 100,
    onCheckpoint: (c) => void checkpoints.push(structuredClone(c)),
    onNode: (r) => void nodes.push(r),
    ...overrides,
  };
  return { options, checkpoints, nodes };
}

describe('graph engine', () => {
  it('follows routers, saves a checkpoint after every node, and stops at an interrupt', async () => {
    const graph = toyGraph();
    const { options, checkpoints, nodes } = runOptions();
    const result = await graph.run(options);
    expect(result.outcome).toBe('interrupted');
    expect(result.interrupt).toEqual({ question: 'n is 3; go on?' });
    expect(nodes.map((n) => `${n.name}:${n.status}`)).toEqual(['count:ok', 'count:ok', 'count:ok', 'ask:interrupted']);
    expect(checkpoints.map((c) => [c.step, c.next, c.state.n])).toEqual([
      [1, 'count', 1],
      [2, 'count', 2],
      [3, 'ask', 3],
      [4, 'ask', 3],
    ]);
    expect(checkpoints.at(-1)?.interrupt).toEqual({ question: 'n is 3; go on?' });
    // Checkpoints are plain JSON.
    expect(JSON.parse(JSON.stringify(checkpoints.at(-1)))).toEqual(checkpoints.at(-1));
  });

  it('resumes from the interrupt checkpoint with Command({ resume }) and re-runs the asking node', async () => {
    const graph = toyGraph();
    const first = runOptions();
    await graph.run(first.options);
    const paused = first.checkpoints.at(-1);
    if (!paused) throw new Error('no checkpoint');

    const again = runOptions({
      from: { checkpoint: paused },
      resume: new Command({ resume: 'again' }),
      ctx: { limit: 5 },
    });
    const result = await graph.run(again.options);
    expect(result.outcome).toBe('interrupted');
    expect(result.state.log).toEqual(['count 1', 'count 2', 'count 3', 'answer again', 'count 4', 'count 5']);

    const done = runOptions({
      from: { checkpoint: again.checkpoints.at(-1)! },
      resume: new Command({ resume: 'stop' }),
    });
    const end = await graph.run(done.options);
    expect(end.outcome).toBe('end');
    expect(end.state.log.at(-1)).toBe('answer stop');
  });

  it('stays interrupted when called again without an answer, running nothing', async () => {
    const graph = toyGraph();
    const first = runOptions();
    await graph.run(first.options);
    const again = runOptions({ from: { checkpoint: first.checkpoints.at(-1)! } });
    const result = await graph.run(again.options);
    expect(result).toMatchObject({ outcome: 'interrupted', interrupt: { question: 'n is 3; go on?' } });
    expect(again.nodes).toEqual([]);
  });

  it('carries the answer and the question typed, so a node never validates them again', async () => {
    const graph = toyGraph();
    const first = runOptions();
    const paused = await graph.run(first.options);
    // The question comes back typed: no cast, no parse.
    const question: Question | undefined = paused.interrupt;
    expect(question?.question).toBe('n is 3; go on?');
    const wrong = runOptions({
      from: { checkpoint: first.checkpoints.at(-1)! },
      // @ts-expect-error an answer of the wrong type is refused where it is made, not inside a node
      resume: new Command({ resume: 'dance' }),
    });
    // At run time nothing checks again: the node takes what the caller's validation let through.
    const result = await graph.run(wrong.options);
    expect(result.state.log.at(-1)).toBe('answer dance');
  });

  it('stops after the step limit with the last checkpoint intact', async () => {
    const graph = toyGraph();
    const { options, checkpoints } = runOptions({ ctx: { limit: 1000 }, stepLimit: 5 });
    const result = await graph.run(options);
    expect(result.outcome).toBe('step_limit');
    expect(checkpoints).toHaveLength(5);
    expect(checkpoints.at(-1)).toMatchObject({ step: 5, next: 'count' });
  });

  it('yields at the first node boundary past the deadline, after at least one node', async () => {
    let clock = 0;
    const graph = toyGraph(async () => {
      clock += 10;
    });
    const { options, checkpoints } = runOptions({ ctx: { limit: 1000 }, deadline: 25, now: () => clock });
    const result = await graph.run(options);
    expect(result.outcome).toBe('yielded');
    expect(checkpoints.map((c) => c.state.n)).toEqual([1, 2, 3]);

    const late = runOptions({ ctx: { limit: 1000 }, deadline: 0, now: () => clock });
    expect((await graph.run(late.options)).outcome).toBe('yielded');
    expect(late.checkpoints).toHaveLength(1);
  });

  it('breakIn: a yield ends the call at the next boundary, once a node has run', async () => {
    const graph = toyGraph();
    let asked: string[] = [];
    const { options, checkpoints } = runOptions({
      ctx: { limit: 1000 },
      breakIn: (next, s) => {
        asked.push(`${next}@${s.n}`);
        return s.n >= 2 ? 'yield' : null;
      },
    });
    const result = await graph.run(options);
    expect(result.outcome).toBe('yielded');
    expect(checkpoints.map((c) => c.state.n)).toEqual([1, 2]);
    expect(asked).toEqual(['count@0', 'count@1', 'count@2']);
    // Asked before the first node, a yield waits for one node to run (the call always makes progress).
    asked = [];
    const early = runOptions({ ctx: { limit: 1000 }, breakIn: () => 'yield' });
    expect((await graph.run(early.options)).outcome).toBe('yielded');
    expect(early.checkpoints).toHaveLength(1);
  });

  it('breakIn: a Command diverts to another node, but never before the node that takes a resume', async () => {
    const graph = toyGraph();
    const first = runOptions();
    await graph.run(first.options);
    const paused = first.checkpoints.at(-1)!;
    const divert = () => new Command<State>({ update: { log: ['diverted'] }, goto: 'ask' });
    const again = runOptions({
      from: { checkpoint: paused },
      resume: new Command({ resume: 'again' }),
      ctx: { limit: 100 },
      breakIn: divert,
    });
    const result = await graph.run(again.options);
    // ask took its answer (goto count), then the break sent the graph to ask instead of count.
    expect(again.nodes.map((n) => n.name)).toEqual(['ask', 'ask']);
    expect(result).toMatchObject({ outcome: 'interrupted', interrupt: { question: 'n is 3; go on?' } });
    expect(result.state.log).toEqual(['diverted']);
  });

  it('aborts at the next safe point and does not save the node the abort cut short', async () => {
    const abort = new AbortController();
    let calls = 0;
    const graph = toyGraph(async (signal) => {
      calls += 1;
      if (calls === 2) {
        abort.abort();
        expect(signal.aborted).toBe(true);
      }
    });
    const { options, checkpoints } = runOptions({ ctx: { limit: 1000 }, signal: abort.signal });
    const result = await graph.run(options);
    expect(result.outcome).toBe('aborted');
    expect(checkpoints.map((c) => c.state.n)).toEqual([1]);
  });

  it('cuts a node still running at cutAt and yields from the last checkpoint, saving nothing of it', async () => {
    let calls = 0;
    // The third count hangs until its signal fires, like a model call that outlives the slice.
    const graph = toyGraph(
      (signal) =>
        new Promise<void>((resolve, reject) => {
          calls += 1;
          if (calls < 3) return resolve();
          signal.addEventListener('abort', () => reject(new Error('cut')), { once: true });
        }),
    );
    const { options, checkpoints, nodes } = runOptions({ ctx: { limit: 1000 }, cutAt: Date.now() + 50 });
    const started = Date.now();
    const result = await graph.run(options);
    expect(result.outcome).toBe('yielded');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.state.n).toBe(2);
    expect(checkpoints.at(-1)).toMatchObject({ step: 2, next: 'count', state: { n: 2 } });
    expect(nodes.map((n) => n.status)).toEqual(['ok', 'ok']);
  });

  it("saves a node's mid-node commit as a step of its own that runs the node again, and yields from it when cut", async () => {
    const graph = new StateGraph<State, Ctx>(stateSchema, 1)
      .addNode('effect', async (s, ctx) => {
        await ctx.commit?.({ log: [...s.log, 'about to act'] });
        // Cut here, after the commit: the saved step is what the caller comes back to.
        await new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new Error('cut')), { once: true }),
        );
        return { n: 1 };
      })
      .addEdge(START, 'effect')
      .addEdge('effect', END)
      .compile();
    let flushes = 0;
    const checkpoints: GraphCheckpoint<State>[] = [];
    const result = await graph.run({
      from: { state: { n: 0, log: [] } },
      ctx: { limit: 1 },
      signal: new AbortController().signal,
      stepLimit: 10,
      cutAt: Date.now() + 50,
      onCheckpoint: (c) => void checkpoints.push(structuredClone(c)),
      flushed: async () => {
        flushes += 1;
      },
    });
    expect(checkpoints).toMatchObject([{ step: 1, next: 'effect', state: { n: 0, log: ['about to act'] } }]);
    expect(flushes).toBe(1);
    expect(result).toMatchObject({ outcome: 'yielded', step: 1, state: { n: 0, log: ['about to act'] } });
  });

  it('turns a throwing node into an error outcome without a checkpoint', async () => {
    const graph = toyGraph(async () => {
      throw new Error('boom');
    });
    const { options, checkpoints, nodes } = runOptions();
    const result = await graph.run(options);
    expect(result).toMatchObject({ outcome: 'error', error: 'node "count" failed: boom' });
    expect(checkpoints).toEqual([]);
    expect(nodes[0]).toMatchObject({ name: 'count', status: 'error', error: 'boom' });
  });

  it('reports a router that returns a node it did not declare', async () => {
    const graph = new StateGraph<State, Ctx, Answer, Question>(stateSchema, 1)
      .addNode('a', () => ({}))
      .addNode('b', () => ({}))
      .addEdge(START, 'a')
      .addConditionalEdges('a', () => 'b', ['a'])
      .addEdge('b', END)
      .compile();
    const result = await graph.run(runOptions().options);
    expect(result).toMatchObject({
      outcome: 'error',
      error: expect.stringMatching(/returned "b", which is not among its targets/),
    });
  });

  it('refuses to compile a graph with an edge to nowhere or a dead-end node', () => {
    const base = () => new StateGraph<State, Ctx>(stateSchema, 1).addNode('a', () => ({}));
    expect(() => base().addEdge(START, 'a').addEdge('a', 'b').compile()).toThrow(/a → b names no node/);
    expect(() => base().addEdge(START, 'a').compile()).toThrow(/"a" has no outgoing edge/);
    expect(() => base().compile()).toThrow(/edge from START/);
    expect(() => base().addNode('a', () => ({}))).toThrow(/taken/);
  });

  it('saves the checkpoint fit hands back and goes on from it, for a step and for an interrupt', async () => {
    // Keeps one log line; from n = 2 sends the run to ask at once; replaces the question it asks.
    const graph = toyGraph(undefined, (c) => {
      const state = { ...c.state, log: c.state.log.slice(-1) };
      if (c.interrupt !== undefined) return { ...c, state, interrupt: { question: 'cut' } };
      return { ...c, state, next: c.state.n >= 2 ? 'ask' : c.next };
    });
    const { options, checkpoints } = runOptions({ ctx: { limit: 5 } });
    const result = await graph.run(options);
    expect(result).toMatchObject({
      outcome: 'interrupted',
      interrupt: { question: 'cut' },
      state: { n: 2, log: ['count 2'] },
    });
    expect(checkpoints.map((c) => [c.next, c.state.n, c.state.log])).toEqual([
      ['count', 1, ['count 1']],
      ['ask', 2, ['count 2']],
      ['ask', 2, ['count 2']],
    ]);
    expect(checkpoints.at(-1)?.interrupt).toEqual({ question: 'cut' });
  });

  it('loads checkpoints only with its own version, a known node and a valid state', () => {
    const graph = toyGraph();
    const good = { version: 1, step: 2, next: 'count', state: { n: 2, log: [] }, createdAt: new Date().toISOString() };
    expect(graph.loadCheckpoint(good)).toMatchObject({ ok: true });
    expect(graph.loadCheckpoint({ ...good, version: 2 })).toEqual({
      ok: false,
      message: expect.stringMatching(/version 2 is not supported; this proxy reads version 1/),
    });
    expect(graph.loadCheckpoint({ ...good, next: 'nowhere' })).toEqual({
      ok: false,
      message: expect.stringMatching(/unknown node "nowhere"/),
    });
    expect(graph.loadCheckpoint({ ...good, state: { n: 'two' } })).toEqual({
      ok: false,
      message: expect.stringMatching(/state is invalid: n: .*log/s),
    });
  });
});
