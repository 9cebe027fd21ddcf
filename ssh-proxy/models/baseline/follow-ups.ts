// What a careful person does next after reading an output: look into listed directories, read
// small files, read the files `file` calls text, read what `find` found.
import type { Turn } from '../../agent/bandit-state.ts';
import { joinPath, quotePath } from './shell-quote.ts';

/** A command the baseline may run next, and the reason it gives for it. */
export type Candidate = { command: string; why: string };

/** Dotfiles every home has; reading them teaches nothing about the level. */
const BORING = new Set(['.', '..', '.bashrc', '.profile', '.bash_logout', '.cache', '.ssh', '.hushlogin']);
const LS_LINE = /^([dl-])[rwxsStT-]{9}\S*\s+\d+\s+\S+\s+\S+\s+(\d+)\s+\S+\s+\d+\s+[\d:]+\s+(.+)$/;
const SMALL_FILE = 4096;

/** Commands suggested by one finished command and its output, most promising first. */
export function followUps(turn: Extract<Turn, { kind: 'command' }>): Candidate[] {
  const listed = /^ls(?:\s+-\w+)*(?:\s+(.*))?$/.exec(turn.command.trim());
  if (listed) return fromListing(unquote(listed[1] ?? ''), turn.output);
  if (/^file\s/.test(turn.command)) return fromFileReport(turn.output);
  if (/^find\s/.test(turn.command)) return fromFound(turn.output);
  return [];
}

function fromListing(dir: string, output: string): Candidate[] {
  const candidates: Candidate[] = [];
  for (const line of output.split('\n')) {
    const m = LS_LINE.exec(line.trim());
    if (!m) continue;
    const [, kind, size, name = ''] = m;
    if (BORING.has(name)) continue;
    const path = joinPath(dir, name.replace(/ -> .*$/, ''));
    if (kind === 'd')
      candidates.push({ command: `ls -la ${quotePath(path)}`, why: `${path} is a directory; looking inside.` });
    else if (Number(size) <= SMALL_FILE)
      candidates.push({ command: `cat ${quotePath(path)}`, why: `${path} is small; reading it.` });
    else
      candidates.push({
        command: `file ${quotePath(path)}`,
        why: `${path} is large; checking what kind of file it is first.`,
      });
  }
  // Files before directories: reading is cheaper than descending.
  return [
    ...candidates.filter((s) => s.command.startsWith('cat')),
    ...candidates.filter((s) => !s.command.startsWith('cat')),
  ];
}

function fromFileReport(output: string): Candidate[] {
  return output
    .split('\n')
    .map((line) => /^(.+?): (.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && /\btext\b/.test(m[2] ?? ''))
    .map((m) => ({ command: `cat ${quotePath(m[1] ?? '')}`, why: `file says ${m[1]} is ${m[2]}; reading it.` }));
}

function fromFound(output: string): Candidate[] {
  const paths = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/: Permission denied|No such file/.test(l) && !BORING.has(l.split('/').pop() ?? ''));
  if (paths.length > 5) return [];
  return paths.map((path) => ({ command: `cat ${quotePath(path)}`, why: `find matched ${path}; reading it.` }));
}

function unquote(word: string): string {
  const trimmed = word.trim();
  if (/^'.*'$/.test(trimmed) || /^".*"$/.test(trimmed)) return trimmed.slice(1, -1);
  return trimmed.replace(/^\.\//, '');
}
