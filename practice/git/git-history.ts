// Reading a repository as git prints it: revisions resolved the way git resolves them, commits
// in git log's default format, and trees compared as `git diff` shows them (the unified format,
// with the function-name heuristic in hunk headers).
import git from 'isomorphic-git';
import type { ReadCommitResult } from 'isomorphic-git';
import { editScript, splitLines, unified } from '../commands/diff-command.ts';

export type GitFs = Parameters<typeof git.log>[0]['fs'];
export type Repo = { fs: GitFs; dir: string };
export type TreeEntry = { oid: string; mode: string };

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** git's default date: "Thu Apr 9 13:24:00 2026 +0000" (the range's clock is UTC). */
export function gitDate(seconds: number, offsetMinutes: number): string {
  const d = new Date((seconds - offsetMinutes * 60) * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const off = -offsetMinutes;
  const zone = `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}${pad(Math.abs(off) % 60)}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()} ${zone}`;
}

/** A revision as git reads it: refs, short ids, and ~N / ^ suffixes. Throws "unknown revision". */
export async function resolveRev(repo: Repo, rev: string): Promise<string> {
  const m = /^(.*?)((?:[~^]\d*)*)$/.exec(rev)!;
  const base = m[1] || 'HEAD';
  let oid: string;
  try {
    oid = await git.resolveRef({ ...repo, ref: base });
  } catch {
    try {
      oid = /^[0-9a-f]{4,40}$/.test(base) ? await git.expandOid({ ...repo, oid: base }) : '';
    } catch {
      oid = '';
    }
  }
  if (!oid) throw new Error(`fatal: ambiguous argument '${rev}': unknown revision or path not in the working tree.`);
  for (const step of m[2]!.match(/[~^]\d*/g) ?? []) {
    const count = step.length > 1 ? Number(step.slice(1)) : 1;
    for (let i = 0; i < (step[0] === '~' ? count : 1); i++) {
      const { commit } = await git.readCommit({ ...repo, oid });
      const parent = commit.parent[step[0] === '^' ? count - 1 : 0];
      if (!parent)
        throw new Error(`fatal: ambiguous argument '${rev}': unknown revision or path not in the working tree.`);
      oid = parent;
    }
  }
  return oid;
}

/** Every file of a commit's tree, by path. */
export async function flattenTree(repo: Repo, commitOid: string | undefined): Promise<Map<string, TreeEntry>> {
  const files = new Map<string, TreeEntry>();
  if (!commitOid) return files;
  const walk = async (treeOid: string, prefix: string): Promise<void> => {
    const { tree } = await git.readTree({ ...repo, oid: treeOid });
    for (const entry of tree) {
      if (entry.type === 'tree') await walk(entry.oid, `${prefix}${entry.path}/`);
      else files.set(`${prefix}${entry.path}`, { oid: entry.oid, mode: entry.mode });
    }
  };
  const { commit } = await git.readCommit({ ...repo, oid: commitOid });
  await walk(commit.tree, '');
  return files;
}

export async function blobText(repo: Repo, oid: string): Promise<string> {
  const { blob } = await git.readBlob({ ...repo, oid });
  return Buffer.from(blob).toString('utf8');
}

/** git's default funcname: the last line before the hunk that starts with a letter, _ or $. */
function withFuncnames(diff: string, oldLines: string[]): string {
  return diff.replace(/^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@$/gm, (header, start: string) => {
    for (let i = Number(start) - 2; i >= 0; i--)
      if (/^[A-Za-z_$]/.test(oldLines[i] ?? '')) return `${header} ${oldLines[i]}`;
    return header;
  });
}

const short = (oid: string | undefined) => (oid ?? '0'.repeat(40)).slice(0, 7);

/** `git diff` between two trees, file by file in path order. */
export async function diffTrees(repo: Repo, from: Map<string, TreeEntry>, to: Map<string, TreeEntry>): Promise<string> {
  let out = '';
  for (const path of [...new Set([...from.keys(), ...to.keys()])].sort()) {
    const a = from.get(path);
    const b = to.get(path);
    if (a?.oid === b?.oid) continue;
    const oldText = a ? await blobText(repo, a.oid) : '';
    const newText = b ? await blobText(repo, b.oid) : '';
    out += `diff --git a/${path} b/${path}\n`;
    if (!a) out += `new file mode ${b!.mode}\nindex ${short(undefined)}..${short(b!.oid)}\n`;
    else if (!b) out += `deleted file mode ${a.mode}\nindex ${short(a.oid)}..${short(undefined)}\n`;
    else out += `index ${short(a.oid)}..${short(b.oid)}${a.mode === b.mode ? ` ${a.mode}` : ''}\n`;
    out += `--- ${a ? `a/${path}` : '/dev/null'}\n+++ ${b ? `b/${path}` : '/dev/null'}\n`;
    const oldLines = splitLines(oldText);
    out += withFuncnames(unified(editScript(oldLines, splitLines(newText))), oldLines);
  }
  return out;
}

/** One commit as `git log` prints it, with its patch if asked. */
export async function formatCommit(repo: Repo, entry: ReadCommitResult, patch: boolean): Promise<string> {
  const { commit, oid } = entry;
  const message = commit.message
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => (line ? `    ${line}` : ''))
    .join('\n');
  let out = `commit ${oid}\n${commit.parent.length > 1 ? `Merge: ${commit.parent.map(short).join(' ')}\n` : ''}Author: ${commit.author.name} <${commit.author.email}>\nDate:   ${gitDate(commit.author.timestamp, commit.author.timezoneOffset)}\n\n${message}\n`;
  if (patch) {
    const diff = await diffTrees(repo, await flattenTree(repo, commit.parent[0]), await flattenTree(repo, oid));
    if (diff) out += `\n${diff}`;
  }
  return out;
}
