// GNU's filevercmp (gnulib, as coreutils 9.1's sort -V and ls -v use it): names compared as
// versions, "1.9" before "1.10", file suffixes such as ".tar.gz" set aside for a first pass.

export function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return -1;
  if (b === '') return 1;
  // "." first, then "..", then other names with a leading ".", then the rest.
  if (a[0] === '.' || b[0] === '.') {
    if (a[0] !== '.') return 1;
    if (b[0] !== '.') return -1;
    for (const special of ['.', '..']) {
      if (a === special) return -1;
      if (b === special) return 1;
    }
    return compareVersions(a.slice(1), b.slice(1));
  }
  const aPrefix = prefixLength(a);
  const bPrefix = prefixLength(b);
  const first = verrevcmp(a.slice(0, aPrefix), b.slice(0, bPrefix));
  return first || (aPrefix === a.length && bPrefix === b.length) ? first : verrevcmp(a, b);
}

/** The name without its suffix: (\.[A-Za-z~][A-Za-z0-9~]*)*$. */
function prefixLength(s: string): number {
  return s.length - (/(\.[A-Za-z~][A-Za-z0-9~]*)*$/.exec(s)?.[0].length ?? 0);
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Letters before other characters, "~" before everything, the end before anything but "~". */
function order(c: string): number {
  if (isDigit(c)) return 0;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  if (c === '~') return -1;
  return c.charCodeAt(0) + 256;
}

function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const x = i < a.length ? order(a[i]!) : 0;
      const y = j < b.length ? order(b[j]!) : 0;
      if (x !== y) return x - y;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (!firstDiff) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}
