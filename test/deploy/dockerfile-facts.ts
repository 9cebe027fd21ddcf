// A Dockerfile read with dockerfile-ast (the Docker language server's parser) into the facts the
// deployment tests check: stages, settings, copies, the user, the command and the health check.
import { readFileSync } from 'node:fs';
import { DockerfileParser } from 'dockerfile-ast';
import type { Instruction } from 'dockerfile-ast';

/** One build stage: its base image and its instructions in order. */
export type Stage = { image: string; instructions: Instruction[] };

/** What a Dockerfile says, as the tests need it. */
export type DockerfileFacts = {
  text: string;
  stages: Stage[];
  /** ENV settings of every stage, with their values. */
  env: { name: string; value: string | null }[];
  args: { name: string; value: string | null }[];
  /** COPY instructions; `from` is the stage a file comes from, null for the build context. */
  copies: { from: string | null; sources: string[]; destination: string; stage: number }[];
};

/** Parses `path`. */
export function readDockerfile(path: string): DockerfileFacts {
  const text = readFileSync(path, 'utf8');
  const dockerfile = DockerfileParser.parse(text);
  const stages: Stage[] = [];
  const copies: DockerfileFacts['copies'] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === 'FROM') stages.push({ image: instruction.getArguments()[0]?.getValue() ?? '', instructions: [] });
    stages.at(-1)?.instructions.push(instruction);
  }
  for (const copy of dockerfile.getCOPYs()) {
    const values = copy.getArguments().map((a) => a.getValue());
    const line = copy.getRange().start.line;
    const stage = stages.findLastIndex((s) => s.instructions[0]!.getRange().start.line <= line);
    copies.push({
      from: copy.getFromFlag()?.getValue() ?? null,
      sources: values.slice(0, -1),
      destination: values.at(-1) ?? '',
      stage,
    });
  }
  return {
    text,
    stages,
    env: dockerfile
      .getENVs()
      .flatMap((e) => e.getProperties().map((p) => ({ name: p.getName(), value: p.getValue() }))),
    args: dockerfile.getARGs().flatMap((a) => {
      const p = a.getProperty();
      return p ? [{ name: p.getName(), value: p.getValue() }] : [];
    }),
    copies,
  };
}

/** The instructions of the last stage, the image that runs. */
export function finalStage(facts: DockerfileFacts): Instruction[] {
  return facts.stages.at(-1)?.instructions ?? [];
}

/** The exec-form vector of a CMD, or of a HEALTHCHECK's CMD; null for the shell form. */
export function execForm(instruction: Instruction): string[] | null {
  const content = instruction.getArgumentsContent() ?? '';
  const json = instruction.getKeyword() === 'HEALTHCHECK' ? /\bCMD\s+(\[[\s\S]*\])\s*$/.exec(content)?.[1] : content;
  if (!json?.trim().startsWith('[')) return null;
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) && parsed.every((p) => typeof p === 'string') ? parsed : null;
}
