// POSIX regular expressions, basic (grep's default) and extended (-E), as JavaScript regular
// expressions, with GNU's extensions: \+ \? \| in basic ones, \w \W \s \S \b \B \< \>, and the
// character classes [:alpha:] and the rest. Players write `grep -o "[0-9]\+"` as GNU grep reads it.

/** A pattern GNU grep would refuse, with GNU's words for why. */
export class PatternError extends Error {}

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: '0-9A-Za-z',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
  xdigit: '0-9A-Fa-f',
};

/** JS source for one POSIX pattern; `extended` for ERE (grep -E), otherwise BRE. */
export function posixToJs(pattern: string, extended: boolean): string {
  let out = '';
  let depth = 0;
  // Where an anchor or a leading * is still "at the start" (BRE: after ^, \( or \|).
  let atStart = true;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const startHere: boolean = atStart;
    atStart = false;
    if (c === '[') {
      const [cls, end] = bracket(pattern, i);
      out += cls;
      i = end;
      continue;
    }
    if (c === '\\') {
      const n = pattern[++i];
      if (n === undefined) throw new PatternError('Trailing backslash');
      if (!extended && (n === '(' || n === ')' || n === '|' || n === '{' || n === '}' || n === '+' || n === '?')) {
        [out, depth, atStart] = special(n, out, depth, pattern, i, extended);
        if (n === '{') i = pattern.indexOf('\\}', i) + 1;
        continue;
      }
      if (n === '<') out += '\\b(?=\\w)';
      else if (n === '>') out += '\\b(?<=\\w)';
      else if (/[wWsSbB1-9]/.test(n)) out += `\\${n}`;
      else out += escapeJs(n);
      continue;
    }
    if (c === '^') {
      const anchor: boolean = extended || startHere;
      out += anchor ? '^' : '\\^';
      atStart = anchor;
      continue;
    }
    if (c === '$') {
      const rest = pattern.slice(i + 1);
      out += extended || rest === '' || rest.startsWith('\\)') || rest.startsWith('\\|') ? '$' : '\\$';
      continue;
    }
    if (c === '*') {
      // A * after another quantifier changes nothing (a** is a*), where JS would refuse it.
      out += startHere ? '\\*' : /(^|[^\\])[*+?}]$/.test(out) ? '' : '*';
      continue;
    }
    if (
      extended &&
      (c === '(' ||
        c === ')' ||
        c === '|' ||
        c === '+' ||
        c === '?' ||
        (c === '{' && /^\{\d*(,\d*)?\}/.test(pattern.slice(i))))
    ) {
      [out, depth, atStart] = special(c, out, depth, pattern, i, extended);
      if (c === '{') i = pattern.indexOf('}', i);
      continue;
    }
    out += c === '.' ? '.' : escapeJs(c);
  }
  if (depth > 0) throw new PatternError('Unmatched ( or \\(');
  return out;
}

function special(
  c: string,
  out: string,
  depth: number,
  pattern: string,
  at: number,
  extended: boolean,
): [string, number, boolean] {
  switch (c) {
    case '(':
      return [`${out}(`, depth + 1, true];
    case ')':
      if (depth === 0) {
        if (extended) return [`${out}\\)`, depth, false];
        throw new PatternError('Unmatched ) or \\)');
      }
      return [`${out})`, depth - 1, false];
    case '|':
      return [`${out}|`, depth, true];
    case '{': {
      const close = extended ? '}' : '\\}';
      const end = pattern.indexOf(close, at);
      const body = end < 0 ? '' : pattern.slice(at + 1, end);
      if (!/^\d*(,\d*)?$/.test(body) || body === '' || body === ',')
        throw new PatternError(end < 0 ? 'Unmatched \\{' : 'Invalid content of \\{\\}');
      return [`${out}{${body.startsWith(',') ? `0${body}` : body}}`, depth, false];
    }
    default:
      // + and ?: a leading one is literal, as a leading * is.
      return [out === '' || /[(|^]$/.test(out) ? `${out}\\${c}` : `${out}${c}`, depth, false];
  }
}

/** A bracket expression from `[` at `start`: its JS class and the index of its `]`. */
function bracket(pattern: string, start: number): [string, number] {
  let i = start + 1;
  let negate = false;
  if (pattern[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === ']' && !first) return [`[${negate ? '^' : ''}${body}]`, i];
    first = false;
    if (c === '[' && (pattern[i + 1] === ':' || pattern[i + 1] === '.' || pattern[i + 1] === '=')) {
      const kind = pattern[i + 1]!;
      const end = pattern.indexOf(`${kind}]`, i + 2);
      if (end < 0) break;
      const name = pattern.slice(i + 2, end);
      if (kind === ':') {
        const cls = CLASSES[name];
        if (cls === undefined) throw new PatternError('Invalid character class name');
        body += cls;
      } else body += escapeJs(name);
      i = end + 1;
      continue;
    }
    // In a bracket expression a backslash is itself; ^ and [ only need escaping for JS.
    body += c === '\\' || c === '^' || c === '[' || c === ']' ? `\\${c}` : c;
  }
  // GNU's words differ for a pattern that ends at the [ itself.
  throw new PatternError(
    start === pattern.length - 1 ? 'Invalid regular expression' : 'Unmatched [, [^, [:, [., or [=',
  );
}

function escapeJs(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}
