// cut as GNU coreutils 9.1 cuts: -b and -c both count bytes (GNU cut has no multibyte support), -f
// with -d and -s, --complement and --output-delimiter. just-bash's cut decoded binary input as
// UTF-8 first, which the differential test showed on bandit9's data.txt.
import { defineCommand } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { binary, describeFsError, stdinBytes } from './command-env.ts';

type Range = [number, number];

class CutError extends Error {}

function parseList(list: string, fields: boolean): Range[] {
  const ranges: Range[] = [];
  for (const part of list.split(/[, ]/)) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || part === '' || part === '-')
      throw new CutError(
        part === '-'
          ? 'invalid range with no endpoint: -'
          : fields
            ? `invalid field value ‘${part}’`
            : `invalid byte/character position ‘${part}’`,
      );
    const from = m[1] ? Number(m[1]) : 1;
    const to = m[2] ? (m[3] ? Number(m[3]) : Number.POSITIVE_INFINITY) : from;
    if (from === 0 || to === 0)
      throw new CutError(fields ? 'fields are numbered from 1' : 'byte/character positions are numbered from 1');
    if (to < from) throw new CutError('invalid decreasing range');
    ranges.push([from, to]);
  }
  return ranges;
}

export function cutCommand(env: CommandEnv) {
  const { fs } = env;
  return defineCommand('cut', async (args, ctx) => {
    let mode: 'b' | 'f' | undefined;
    let list = '';
    let delimiter = '\t';
    let outputDelimiter: string | undefined;
    let onlyDelimited = false;
    let complement = false;
    let zero = false;
    const files: string[] = [];
    const usage = "Try 'cut --help' for more information.\n";
    try {
      for (let i = 0; i < args.length; i++) {
        const arg = args[i]!;
        const long = /^--(bytes|characters|fields|delimiter|output-delimiter)(?:=(.*))?$/s.exec(arg);
        if (long) {
          const value = long[2] ?? args[++i];
          if (value === undefined) throw new CutError(`option '--${long[1]}' requires an argument`);
          if (long[1] === 'delimiter') delimiter = value;
          else if (long[1] === 'output-delimiter') outputDelimiter = value;
          else {
            if (mode) throw new CutError('only one type of list may be specified');
            mode = long[1] === 'fields' ? 'f' : 'b';
            list = value;
          }
        } else if (arg === '--complement') complement = true;
        else if (arg === '--only-delimited') onlyDelimited = true;
        else if (arg === '--zero-terminated') zero = true;
        else if (arg === '--') files.push(...args.splice(i + 1));
        else if (arg.startsWith('-') && arg.length > 1) {
          for (let j = 1; j < arg.length; j++) {
            const f = arg[j]!;
            if ('bcfd'.includes(f)) {
              const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
              if (value === undefined) throw new CutError(`option requires an argument -- '${f}'`);
              if (f === 'd') delimiter = value;
              else {
                if (mode) throw new CutError('only one type of list may be specified');
                mode = f === 'f' ? 'f' : 'b';
                list = value;
              }
              break;
            }
            if (f === 's') onlyDelimited = true;
            else if (f === 'z') zero = true;
            else if (f !== 'n') throw new CutError(`invalid option -- '${f}'`);
          }
        } else files.push(arg);
      }
      if (!mode) throw new CutError('you must specify a list of bytes, characters, or fields');
      if (delimiter.length !== 1 || Buffer.byteLength(delimiter) !== 1)
        throw new CutError('the delimiter must be a single character');
      if (mode === 'b' && onlyDelimited)
        throw new CutError('suppressing non-delimited lines makes sense\n\tonly when operating on fields');
    } catch (err) {
      return { stdout: '', stderr: `cut: ${(err as Error).message}\n${usage}`, exitCode: 1 };
    }
    let ranges: Range[];
    try {
      ranges = parseList(list, mode === 'f');
    } catch (err) {
      return { stdout: '', stderr: `cut: ${(err as Error).message}\n${usage}`, exitCode: 1 };
    }
    const selected = (n: number) => ranges.some(([a, b]) => n >= a && n <= b) !== complement;
    const eol = zero ? '\0' : '\n';
    let out = '';
    let stderr = '';
    let exitCode = 0;
    const cutLine = (line: string) => {
      if (mode === 'b') {
        let piece = '';
        let last = -2;
        for (let i = 0; i < line.length; i++) {
          if (!selected(i + 1)) continue;
          if (outputDelimiter !== undefined && last >= 0 && last !== i - 1) piece += outputDelimiter;
          piece += line[i];
          last = i;
        }
        return `${piece}${eol}`;
      }
      if (!line.includes(delimiter)) return onlyDelimited ? '' : `${line}${eol}`;
      const fields = line.split(delimiter);
      return `${fields.filter((_, i) => selected(i + 1)).join(outputDelimiter ?? delimiter)}${eol}`;
    };
    for (const file of files.length ? files : ['-']) {
      let text: string;
      try {
        text = Buffer.from(
          file === '-' ? stdinBytes(ctx.stdin) : await fs.readFileBuffer(fs.resolvePath(ctx.cwd, file)),
        ).toString('latin1');
      } catch (err) {
        stderr += `cut: ${file}: ${describeFsError(err)}\n`;
        exitCode = 1;
        continue;
      }
      const lines = text.split(eol);
      if (lines[lines.length - 1] === '') lines.pop();
      for (const line of lines) out += cutLine(line);
    }
    return binary(out, stderr, exitCode);
  });
}
