// grep as GNU grep 3.8 behaves in the C.UTF-8 locale, over bytes: basic and extended patterns
// with GNU's extensions (posix-regex.ts), the usual flags, context, recursion, and binary files —
// a file with a NUL byte (bandit9's data.txt) has its matching lines withheld behind "binary file
// matches" on stderr, and NUL bytes end lines there, as in GNU grep. just-bash's grep read binary
// data as text and missed `\+`, which the differential test showed.
import { defineCommand } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { binary, describeFsError, stdinBytes } from './command-env.ts';
import { parseGrepArgs } from './grep-options.ts';
import type { GrepOptions } from './grep-options.ts';
import { PatternError, posixToJs } from './posix-regex.ts';

const USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";
const utf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

type Source = { label: string; path?: string };

export function grepCommand(env: CommandEnv, name: 'grep' | 'egrep' | 'fgrep') {
  const { fs } = env;
  return defineCommand(name, async (args, ctx) => {
    let o: GrepOptions;
    try {
      o = parseGrepArgs(args, name);
    } catch (err) {
      const message = (err as Error).message;
      return { stdout: '', stderr: `${message ? `${name}: ${message}\n` : ''}${USAGE}`, exitCode: 2 };
    }
    if (o.help)
      return { stdout: `${USAGE.split('\n')[0]}\nSearch for PATTERNS in each FILE.\n`, stderr: '', exitCode: 0 };
    if (o.version) return { stdout: 'grep (GNU grep) 3.8\n', stderr: '', exitCode: 0 };
    let stderr = '';
    let error = false;
    for (const file of o.patternFiles) {
      try {
        // One pattern a line; an empty file has none (and matches nothing), "\n" has one empty one.
        const text = utf8.decode(await fs.readFileBuffer(fs.resolvePath(ctx.cwd, file)));
        if (text !== '') o.patterns.push(...text.replace(/\n$/, '').split('\n'));
      } catch (err) {
        return { stdout: '', stderr: `${stderr}${name}: ${file}: ${describeFsError(err)}\n`, exitCode: 2 };
      }
    }
    let regex: RegExp;
    try {
      regex = compile(o);
    } catch (err) {
      const message = err instanceof PatternError ? err.message : 'Invalid regular expression';
      return { stdout: '', stderr: `${stderr}${name}: ${message}\n`, exitCode: 2 };
    }

    const out: Buffer[] = [];
    const print = (text: string | Uint8Array) =>
      out.push(typeof text === 'string' ? Buffer.from(text) : Buffer.from(text));
    let anySelected = false;
    let lastGroupEnd: { source: Source; line: number } | undefined;

    // One file's bytes: returns true when grep should stop altogether (-q found a line).
    const search = (data: Uint8Array, source: Source, named: boolean): boolean => {
      const hasNul = o.binaryFiles !== 'text' && data.includes(0);
      if (hasNul && o.binaryFiles === 'without-match') return false;
      const { lines, starts } = splitLines(data, hasNul);
      const prefix = (line: number, sep: string, offset = starts[line]!) =>
        `${named ? `${source.label}${sep}` : ''}${o.lineNumber ? `${line + 1}${sep}` : ''}${o.byteOffset ? `${offset}${sep}` : ''}`;
      let selected = 0;
      let printedUpTo = -1;
      let afterLeft = 0;
      const showContext = !o.onlyMatching && !o.count && !o.filesWithMatches && !o.filesWithoutMatch && !o.quiet;
      for (let i = 0; i < lines.length && selected < o.maxCount; i++) {
        const bytes = lines[i]!;
        const text = utf8.decode(bytes);
        regex.lastIndex = 0;
        const isSelected = regex.test(text) !== o.invert;
        if (!isSelected) {
          if (showContext && afterLeft > 0 && i > printedUpTo) {
            print(prefix(i, '-'));
            print(bytes);
            print('\n');
            printedUpTo = i;
            afterLeft--;
            lastGroupEnd = { source, line: i };
          }
          continue;
        }
        selected++;
        anySelected = true;
        if (o.quiet) return true;
        if (o.filesWithMatches || o.filesWithoutMatch) break;
        if (o.count) continue;
        if (o.binaryFiles === 'binary' && (hasNul || !isUtf8(bytes))) {
          stderr += `${name}: ${source.label}: binary file matches\n`;
          return false;
        }
        const first = Math.max(printedUpTo + 1, i - o.before);
        if ((o.before || o.after) && lastGroupEnd && (lastGroupEnd.source !== source || lastGroupEnd.line < first - 1))
          print('--\n');
        for (let j = first; j < i; j++) {
          print(prefix(j, '-'));
          print(lines[j]!);
          print('\n');
        }
        if (o.onlyMatching) {
          regex.lastIndex = 0;
          if (!o.invert) {
            for (const m of text.matchAll(regex)) {
              if (m[0] !== '')
                print(`${prefix(i, ':', starts[i]! + Buffer.byteLength(text.slice(0, m.index)))}${m[0]}\n`);
            }
          }
        } else {
          print(prefix(i, ':'));
          print(bytes);
          print('\n');
        }
        printedUpTo = i;
        afterLeft = o.after;
        lastGroupEnd = { source, line: i };
      }
      if (o.count) print(`${named ? `${source.label}:` : ''}${selected}\n`);
      if (o.filesWithMatches && selected > 0) print(`${source.label}\n`);
      if (o.filesWithoutMatch && selected === 0) print(`${source.label}\n`);
      return false;
    };

    const complain = (label: string, err: unknown) => {
      error = true;
      if (!o.noMessages) stderr += `${name}: ${label}: ${describeFsError(err)}\n`;
    };
    // Files under a directory, in the range's name order (real grep's order is the disk's).
    const walk = async (path: string, label: string, named: boolean): Promise<boolean> => {
      let names: string[];
      try {
        names = (await fs.readdir(path)).sort();
      } catch (err) {
        complain(label, err);
        return false;
      }
      for (const entry of names) {
        const child = `${path === '/' ? '' : path}/${entry}`;
        const childLabel = label === '' ? entry : `${label.replace(/\/$/, '')}/${entry}`;
        let stat: Awaited<ReturnType<typeof fs.stat>>;
        try {
          stat = o.recursive === 'R' ? await fs.stat(child) : await fs.lstat(child);
        } catch (err) {
          complain(childLabel, err);
          continue;
        }
        if (stat.isSymbolicLink) continue;
        if (stat.isDirectory) {
          if (o.excludeDir.some((g) => globMatch(g, entry))) continue;
          if (await walk(child, childLabel, named)) return true;
        } else {
          if (o.include.length && !o.include.some((g) => globMatch(g, entry))) continue;
          if (o.exclude.some((g) => globMatch(g, entry))) continue;
          if (await readAndSearch(child, childLabel, named)) return true;
        }
      }
      return false;
    };
    const readAndSearch = async (path: string, label: string, named: boolean): Promise<boolean> => {
      let data: Uint8Array;
      try {
        data = await fs.readFileBuffer(path);
      } catch (err) {
        complain(label, err);
        return false;
      }
      return search(data, { label, path }, named);
    };

    const operands = o.operands.length ? o.operands : [o.recursive ? '' : '-'];
    const named = o.withFilename ?? (operands.length > 1 || o.recursive !== false);
    for (const operand of operands) {
      if (operand === '-') {
        if (search(stdinBytes(ctx.stdin), { label: o.label }, named)) break;
        continue;
      }
      const path = fs.resolvePath(ctx.cwd, operand || '.');
      let stat: Awaited<ReturnType<typeof fs.stat>>;
      try {
        stat = await fs.stat(path);
      } catch (err) {
        complain(operand, err);
        continue;
      }
      if (stat.isDirectory) {
        if (!o.recursive) {
          if (!o.noMessages) stderr += `${name}: ${operand}: Is a directory\n`;
          error = true;
          continue;
        }
        if (await walk(path, operand, named)) break;
      } else if (await readAndSearch(path, operand, named)) break;
    }
    const exitCode = o.quiet && anySelected ? 0 : error ? 2 : anySelected ? 0 : 1;
    return binary(Buffer.concat(out), stderr, exitCode);
  });
}

/** The patterns as one JS regular expression (global, for -o). */
function compile(o: GrepOptions): RegExp {
  const sources = o.patterns.map((p) => {
    let source =
      o.syntax === 'fixed'
        ? p.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
        : o.syntax === 'perl'
          ? p
          : posixToJs(p, o.syntax === 'extended');
    if (o.line) source = `^(?:${source})$`;
    else if (o.word) source = `(?<!\\w)(?:${source})(?!\\w)`;
    return source;
  });
  // No pattern at all (grep -f /dev/null) matches nothing.
  return new RegExp(sources.length ? sources.map((s) => `(?:${s})`).join('|') : '(?!)', o.ignoreCase ? 'gi' : 'g');
}

/** Lines without their ends, and where each starts; in a binary file a NUL ends a line too. */
function splitLines(data: Uint8Array, nulEndsLines: boolean): { lines: Uint8Array[]; starts: number[] } {
  const lines: Uint8Array[] = [];
  const starts: number[] = [];
  let start = 0;
  for (let i = 0; i < data.length; i++) {
    const b = data[i];
    if (b === 0x0a || (nulEndsLines && b === 0)) {
      lines.push(data.subarray(start, i));
      starts.push(start);
      start = i + 1;
    }
  }
  // A last line may lack its newline.
  if (start < data.length) {
    lines.push(data.subarray(start));
    starts.push(start);
  }
  return { lines, starts };
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function globMatch(glob: string, name: string): boolean {
  const source = glob
    .replace(/[\\^$.+()|{}]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(name);
}
