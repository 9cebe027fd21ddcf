// What a command line writes to the terminal, byte for byte.
//
// just-bash hands each command's stdout along as bytes or as text and keeps them apart through pipes
// and redirections to a file, but the result of a whole command line is one string in which every
// statement's bytes were decoded as UTF-8, or kept as one character per byte when they are not
// UTF-8 — the same characters a text command could have printed. `cat` on bandit9's binary
// data.txt then reached the player as mojibake. Here each simple command that prints to the
// terminal gets a leading `>> /dev/tty` (so the player's own redirections, after it, still win),
// and the shell's filesystem hands what is written there to this capture in the encoding just-bash
// writes it with: bytes stay bytes and text becomes UTF-8, as on a real terminal.
import type { TransformPlugin } from 'just-bash';

/** The path the terminal is written through; a player's `echo hi > /dev/tty` reaches it too. */
export const TTY_PATH = '/dev/tty';

// Structural views of just-bash's AST (its node types are not exported from the package root).
type Redirection = { type: 'Redirection'; fd: number | null; operator: string; target: unknown };
type Statement = { pipelines: { commands: Command[] }[] };
type Command = {
  type: string;
  name?: unknown;
  redirections?: Redirection[];
  body?: Statement[];
  condition?: Statement[];
  clauses?: { condition: Statement[]; body: Statement[] }[];
  elseBody?: Statement[] | null;
  items?: { body: Statement[] }[];
};

const STDOUT_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);

export class TerminalOutput {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private armed = true;
  private readonly limit: number;

  /** Keeps at most `limit` bytes; the session cuts and marks longer output. */
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
          this.statements(context.ast.statements as unknown as Statement[]);
        }
        return { ast: context.ast };
      },
    };
  }

  /** A write or append to TTY_PATH, with the encoding just-bash passed ("binary" for bytes). */
  write(content: string | Uint8Array, options?: unknown): void {
    const encoding = typeof options === 'string' ? options : (options as { encoding?: string } | undefined)?.encoding;
    const bytes =
      typeof content === 'string'
        ? Buffer.from(content, encoding === 'binary' || encoding === 'latin1' ? 'latin1' : 'utf8')
        : Buffer.from(content);
    if (bytes.length === 0 || this.size > this.limit) return;
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  /** Everything the terminal got, then `rest`: output that left the shell another way (after `exit`). */
  bytes(rest: string): Buffer {
    return Buffer.concat([...this.chunks, Buffer.from(rest, 'utf8')]);
  }

  private statements(list: Statement[] | null | undefined): void {
    for (const statement of list ?? []) {
      for (const pipeline of statement.pipelines) {
        // Only the last command of a pipeline prints to the terminal; the others print to the pipe.
        const last = pipeline.commands[pipeline.commands.length - 1];
        if (last) this.command(last);
      }
    }
  }

  private command(command: Command): void {
    // A function's body also runs where its output goes to a pipe, so it is left as it is; an
    // assignment alone prints nothing and its redirection would change where it takes effect.
    if (command.type === 'FunctionDef' || (command.type === 'SimpleCommand' && !command.name)) return;
    if (command.type === 'SimpleCommand') {
      command.redirections?.unshift(ttyRedirection());
      return;
    }
    // A compound command whose output the player sent elsewhere keeps it there.
    if (command.redirections?.some((r) => STDOUT_OPERATORS.has(r.operator) && (r.fd === null || r.fd === 1))) return;
    for (const clause of command.clauses ?? []) {
      this.statements(clause.condition);
      this.statements(clause.body);
    }
    this.statements(command.elseBody);
    this.statements(command.condition);
    this.statements(command.body);
    for (const item of command.items ?? []) this.statements(item.body);
  }
}

function ttyRedirection(): Redirection {
  return {
    type: 'Redirection',
    fd: null,
    operator: '>>',
    target: { type: 'Word', parts: [{ type: 'Literal', value: TTY_PATH }] },
  };
}
