// Whether a path reaches the build context past .dockerignore, for the patterns this repository uses:
// `*`, `**/name`, and plain paths (a folder's path covers what is inside). The last matching line wins.
import { readFileSync } from 'node:fs';

/** A predicate over repository paths, from the .dockerignore at `path`; throws on a pattern it cannot judge. */
export function readDockerignore(path: string): (file: string) => boolean {
  const rules = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      const pattern = (include ? line.slice(1) : line).replace(/\/+$/, '');
      const name = pattern.startsWith('**/') ? pattern.slice(3) : null;
      if (pattern !== '*' && /[*?[\]]/.test(name ?? pattern)) {
        throw new Error(
          `.dockerignore: this test cannot judge the pattern ${line}; extend test/deploy/dockerignore.ts`,
        );
      }
      const matches = (file: string): boolean =>
        pattern === '*'
          ? true
          : name !== null
            ? file.split('/').includes(name)
            : file === pattern || file.startsWith(`${pattern}/`);
      return { include, matches };
    });
  return (file) => {
    let sent = true;
    for (const rule of rules) if (rule.matches(file)) sent = rule.include;
    return sent;
  };
}
