// What a command line writes to the terminal, byte for byte and in the order it wrote it.
//
// just-bash hands each command's stdout along as bytes or as text and keeps them apart through pipes
// and redirections to a file, but the result of a whole command line is one string in which every
// statement's bytes were decoded as UTF-8, or kept as one character per byte when they are not
// UTF-8 — the same characters a text command could have printed. `cat` on bandit9's binary
// data.txt then reached the player as mojibake. It also returns stdout and stderr as two blobs, so
// `git clone … && echo done` printed `done` before git's "Cloning into…". Here each simple command
// whose output reaches the terminal gets leading redirections, `>> /dev/tty` and `2>> TTY_STDERR_PATH`
// (leading, so the player's own redirections, after them, still win), and the shell's filesystem
// hands what is written there to this capture as it is written, in the encoding just-bash writes it
// with: bytes stay bytes and text becomes UTF-8, and each chunk keeps its stream and its place.
import type { TransformPlugin } from 'just-bash';
import type { OutputChunk, OutputStream } from './shell-job.ts';

/** The path the terminal's stdout is written through; a player's `echo hi > /dev/tty` reaches it too. */
export const TTY_PATH = '/dev/tty';
/** The path the terminal's stderr is written through: the range's own, no player's command names it. */
export const TTY_STDERR_PATH = '/dev/.practice-tty-stderr';

/** The terminal stream a write to `path` goes to, or undefined for any other file. */
export function terminalStream(path: unknown): OutputStream | undefined {
  return path === TTY_PATH ? 'stdout' : path === TTY_STDERR_PATH ? 'stderr' : undefined;
}

// Structural views of just-bash's AST (its node types are not exported from the package root).
type Word = { type: string; parts?: { type: string; value?: string }[] };
type Redirection = { type: 'Redirection'; fd: number | null; operator: string; target: Word };
type Pipeline = { commands: Command[]; pipeStderr?: boolean[] };
type Statement = { pipelines: Pipeline[] };
type Command = {
  type: string;
  name?: Word | null;
  args?: Word[];
  redirections?: Redirection[];
  body?: Statement[];
  condition?: Statement[];
  clauses?: { condition: Statement[]; body: Statement[] }[];
  elseBody?: Statement[] | null;
  items?: { body: Statement[] }[];
};

/** Where fd 1 and fd 2 of a command lead: to the terminal's stdout or stderr, or elsewhere (null). */
type Routes = { out: OutputStream | null; err: OutputStream | null };

const INPUT_OPERATORS = new Set(['<', '<<', '<<-', '<<<', '<>', '<&']);

export class TerminalOutput {
  private readonly chunks: OutputChunk[] = [];
  private readonly sizes = { stdout: 0, stderr: 0 };
  private armed = true;
  private readonly limit: number;

  /** Keeps at most about `limit` bytes per stream; the session cuts and marks longer output. */
  constructor(limit: number) {
    this.limit = limit;
  }

  /**
   * Rewrites the command line the shell runs first (the player's), and none after it: the command
   * lines that commands run themselves (`bash -c`, `find -exec`) hand their output to that command.
   */
  plugin(): TransformPlugin {
    return {
      name: 'terminal-output',
      transform: (context) => {
        if (this.armed) {
          this.armed = false;
          this.statements(context.ast.statements as unknown as Statement[], { out: 'stdout', err: 'stderr' });
        }
        return { ast: context.ast };
      },
    };
  }

  /** A write to one of the terminal's paths, with the encoding just-bash passed ("binary" for bytes). */
  write(stream: OutputStream, content: string | Uint8Array, options?: unknown): void {
    const encoding = typeof options === 'string' ? options : (options as { encoding?: string } | undefined)?.encoding;
    const bytes =
      typeof content === 'string'
        ? Buffer.from(content, encoding === 'binary' || encoding === 'latin1' ? 'latin1' : 'utf8')
        : Buffer.from(content);
    if (bytes.length === 0 || this.sizes[stream] > this.limit) return;
    this.chunks.push({ stream, bytes });
    this.sizes[stream] += bytes.length;
  }

  /**
   * Everything the terminal got in order, then what left the shell another way (output after `exit`,
   * errors of the shell itself): its stdout, then its stderr.
   */
  output(rest: { stdout: string; stderr: string }): OutputChunk[] {
    const tail: OutputChunk[] = [
      { stream: 'stdout', bytes: Buffer.from(rest.stdout, 'utf8') },
      { stream: 'stderr', bytes: Buffer.from(rest.stderr, 'utf8') },
    ];
    // One chunk per run of writes to a stream: a loop of `echo`s makes thousands of tiny writes, and
    // each chunk is an object to copy to the main thread and a packet on the channel.
    const runs: { stream: OutputStream; parts: Uint8Array[] }[] = [];
    for (const chunk of [...this.chunks, ...tail]) {
      if (chunk.bytes.length === 0) continue;
      const last = runs[runs.length - 1];
      if (last?.stream === chunk.stream) last.parts.push(chunk.bytes);
      else runs.push({ stream: chunk.stream, parts: [chunk.bytes] });
    }
    return runs.map((run) => ({ stream: run.stream, bytes: Buffer.concat(run.parts) }));
  }

  private statements(list: Statement[] | null | undefined, outer: Routes): void {
    // `exec 2>/dev/null` alone changes where the shell's own fds lead for the commands after it.
    const routes = { ...outer };
    for (const statement of list ?? []) {
      for (const pipeline of statement.pipelines) {
        pipeline.commands.forEach((command, i) => {
          const last = i === pipeline.commands.length - 1;
          // Only the last command of a pipeline prints to the terminal; the others print to the pipe,
          // and so does their stderr after `|&`.
          if (last) this.command(command, routes);
          else this.command(command, { out: null, err: pipeline.pipeStderr?.[i] ? null : routes.err });
        });
      }
    }
  }

  private command(command: Command, routes: Routes): void {
    // A function's body also runs where its output goes to a pipe, so it is left as it is; an
    // assignment alone prints nothing and its redirection would change where it takes effect.
    if (command.type === 'FunctionDef' || (command.type === 'SimpleCommand' && !command.name)) return;
    if (command.type === 'SimpleCommand') {
      if (literal(command.name) === 'exec' && !command.args?.length) {
        Object.assign(routes, routed(command.redirections, routes));
        return;
      }
      const leading: Redirection[] = [];
      if (routes.out) leading.push(appendTo(null, routes.out));
      if (routes.err) leading.push(appendTo(2, routes.err));
      command.redirections?.unshift(...leading);
      return;
    }
    // A compound command's own redirections decide where the commands inside it write.
    const inside = routed(command.redirections, routes);
    if (!inside.out && !inside.err) return;
    for (const clause of command.clauses ?? []) {
      this.statements(clause.condition, inside);
      this.statements(clause.body, inside);
    }
    this.statements(command.elseBody, inside);
    this.statements(command.condition, inside);
    this.statements(command.body, inside);
    for (const item of command.items ?? []) this.statements(item.body, inside);
  }
}

/** Where fds 1 and 2 lead after `redirections`, applied left to right as bash applies them. */
function routed(redirections: Redirection[] | undefined, start: Routes): Routes {
  const routes = { ...start };
  for (const r of redirections ?? []) {
    if (INPUT_OPERATORS.has(r.operator) || r.target?.type !== 'Word') continue;
    const target = literal(r.target);
    const dup = r.operator === '>&' && target !== undefined && /^(\d+|-)$/.test(target);
    if (r.operator === '&>' || r.operator === '&>>' || (r.operator === '>&' && r.fd === null && !dup)) {
      const to = fileRoute(target, routes);
      routes.out = to;
      routes.err = to;
      continue;
    }
    const fd = r.fd ?? 1;
    if (fd !== 1 && fd !== 2) continue;
    const to = dup ? (target === '1' ? routes.out : target === '2' ? routes.err : null) : fileRoute(target, routes);
    if (fd === 1) routes.out = to;
    else routes.err = to;
  }
  return routes;
}

/** Where a redirection to the file `path` leads: the terminal for its own paths, elsewhere otherwise. */
function fileRoute(path: string | undefined, routes: Routes): OutputStream | null {
  if (path === '/dev/stdout') return routes.out;
  if (path === '/dev/stderr') return routes.err;
  return terminalStream(path) ?? null;
}

/** A word's text when it is plain literal text (a file name, a number), else undefined. */
function literal(word: Word | null | undefined): string | undefined {
  if (!word?.parts?.every((part) => part.type === 'Literal')) return undefined;
  return word.parts.map((part) => part.value ?? '').join('');
}

function appendTo(fd: number | null, stream: OutputStream): Redirection {
  const path = stream === 'stdout' ? TTY_PATH : TTY_STDERR_PATH;
  return {
    type: 'Redirection',
    fd,
    operator: '>>',
    target: { type: 'Word', parts: [{ type: 'Literal', value: path }] },
  };
}
