// grep's command line as GNU grep reads it: clustered short options, options after operands, long
// options with = or a separate value, -NUM for context, and the patterns from -e, -f or the first
// operand. Options the range does not implement are refused by name, never silently ignored.

export type BinaryFiles = 'binary' | 'text' | 'without-match';

export type GrepOptions = {
  patterns: string[];
  /** Files named by -f, read by the command (they need the filesystem). */
  patternFiles: string[];
  syntax: 'basic' | 'extended' | 'fixed' | 'perl';
  ignoreCase: boolean;
  invert: boolean;
  word: boolean;
  line: boolean;
  count: boolean;
  filesWithMatches: boolean;
  filesWithoutMatch: boolean;
  onlyMatching: boolean;
  quiet: boolean;
  noMessages: boolean;
  lineNumber: boolean;
  byteOffset: boolean;
  withFilename: boolean | undefined;
  recursive: false | 'r' | 'R';
  binaryFiles: BinaryFiles;
  maxCount: number;
  before: number;
  after: number;
  include: string[];
  exclude: string[];
  excludeDir: string[];
  label: string;
  help: boolean;
  version: boolean;
  operands: string[];
};

/** A command line grep refuses, with what GNU grep would say. */
export class UsageError extends Error {}

const SHORT_WITH_VALUE = new Set(['e', 'f', 'm', 'A', 'B', 'C', 'd', 'D']);
const LONG_WITH_VALUE = new Set([
  'regexp',
  'file',
  'max-count',
  'after-context',
  'before-context',
  'context',
  'include',
  'exclude',
  'exclude-dir',
  'binary-files',
  'label',
  'directories',
  'devices',
]);
const LONG_FLAGS: Record<string, string> = {
  'extended-regexp': 'E',
  'fixed-strings': 'F',
  'basic-regexp': 'G',
  'perl-regexp': 'P',
  'ignore-case': 'i',
  'invert-match': 'v',
  'word-regexp': 'w',
  'line-regexp': 'x',
  count: 'c',
  'files-with-matches': 'l',
  'files-without-match': 'L',
  'only-matching': 'o',
  quiet: 'q',
  silent: 'q',
  'no-messages': 's',
  'line-number': 'n',
  'byte-offset': 'b',
  'with-filename': 'H',
  'no-filename': 'h',
  recursive: 'r',
  'dereference-recursive': 'R',
  text: 'a',
  help: '?',
  version: 'V',
};

export function parseGrepArgs(args: string[], name: 'grep' | 'egrep' | 'fgrep'): GrepOptions {
  const o: GrepOptions = {
    patterns: [],
    patternFiles: [],
    syntax: name === 'egrep' ? 'extended' : name === 'fgrep' ? 'fixed' : 'basic',
    ignoreCase: false,
    invert: false,
    word: false,
    line: false,
    count: false,
    filesWithMatches: false,
    filesWithoutMatch: false,
    onlyMatching: false,
    quiet: false,
    noMessages: false,
    lineNumber: false,
    byteOffset: false,
    withFilename: undefined,
    recursive: false,
    binaryFiles: 'binary',
    maxCount: Number.POSITIVE_INFINITY,
    before: 0,
    after: 0,
    include: [],
    exclude: [],
    excludeDir: [],
    label: '(standard input)',
    help: false,
    version: false,
    operands: [],
  };
  let explicitPatterns = false;
  const number = (flag: string, value: string) => {
    if (!/^\d+$/.test(value))
      throw new UsageError(
        flag === 'm' || flag === 'max-count' ? `invalid max count` : `${value}: invalid context length argument`,
      );
    return Number(value);
  };
  const withValue = (flag: string, value: string) => {
    switch (flag) {
      case 'e':
      case 'regexp':
        o.patterns.push(...value.split('\n'));
        explicitPatterns = true;
        break;
      case 'f':
      case 'file':
        o.patternFiles.push(value);
        explicitPatterns = true;
        break;
      case 'm':
      case 'max-count':
        o.maxCount = number(flag, value);
        break;
      case 'A':
      case 'after-context':
        o.after = number(flag, value);
        break;
      case 'B':
      case 'before-context':
        o.before = number(flag, value);
        break;
      case 'C':
      case 'context':
        o.before = o.after = number(flag, value);
        break;
      case 'include':
        o.include.push(value);
        break;
      case 'exclude':
        o.exclude.push(value);
        break;
      case 'exclude-dir':
        o.excludeDir.push(value);
        break;
      case 'label':
        o.label = value;
        break;
      case 'binary-files':
        if (value !== 'binary' && value !== 'text' && value !== 'without-match')
          throw new UsageError('unknown binary-files type');
        o.binaryFiles = value;
        break;
      case 'd':
      case 'directories':
        if (value !== 'recurse')
          throw new UsageError(`option --directories=${value} is not supported on the practice range`);
        o.recursive = 'r';
        break;
      default:
        throw new UsageError(`option -${flag} is not supported on the practice range`);
    }
  };
  const flag = (f: string) => {
    switch (f) {
      case 'E':
        o.syntax = 'extended';
        break;
      case 'F':
        o.syntax = 'fixed';
        break;
      case 'G':
        o.syntax = 'basic';
        break;
      case 'P':
        o.syntax = 'perl';
        break;
      case 'i':
      case 'y':
        o.ignoreCase = true;
        break;
      case 'v':
        o.invert = true;
        break;
      case 'w':
        o.word = true;
        break;
      case 'x':
        o.line = true;
        break;
      case 'c':
        o.count = true;
        break;
      case 'l':
        o.filesWithMatches = true;
        break;
      case 'L':
        o.filesWithoutMatch = true;
        break;
      case 'o':
        o.onlyMatching = true;
        break;
      case 'q':
        o.quiet = true;
        break;
      case 's':
        o.noMessages = true;
        break;
      case 'n':
        o.lineNumber = true;
        break;
      case 'b':
        o.byteOffset = true;
        break;
      case 'H':
        o.withFilename = true;
        break;
      case 'h':
        o.withFilename = false;
        break;
      case 'r':
        o.recursive = 'r';
        break;
      case 'R':
        o.recursive = 'R';
        break;
      case 'a':
        o.binaryFiles = 'text';
        break;
      case 'I':
        o.binaryFiles = 'without-match';
        break;
      case '?':
        o.help = true;
        break;
      case 'V':
        o.version = true;
        break;
      default:
        throw new UsageError(`option -${f} is not supported on the practice range`);
    }
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      o.operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const long = arg.slice(2, eq < 0 ? undefined : eq);
      if (long === 'color' || long === 'colour') continue; // Output is not a terminal: never coloured.
      if (LONG_WITH_VALUE.has(long)) {
        const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
        if (value === undefined) throw new UsageError(`option '--${long}' requires an argument`);
        withValue(long, value);
      } else if (LONG_FLAGS[long] && eq < 0) flag(LONG_FLAGS[long]);
      else throw new UsageError(`unrecognized option '${arg}'`);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      const digits = /^-(\d+)$/.exec(arg);
      if (digits) {
        o.before = o.after = Number(digits[1]);
        continue;
      }
      for (let j = 1; j < arg.length; j++) {
        const f = arg[j]!;
        if (SHORT_WITH_VALUE.has(f)) {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          if (value === undefined) throw new UsageError(`option requires an argument -- '${f}'`);
          withValue(f, value);
          break;
        }
        flag(f);
      }
      continue;
    }
    o.operands.push(arg);
  }
  if (!explicitPatterns && !o.help && !o.version) {
    const first = o.operands.shift();
    if (first === undefined) throw new UsageError('');
    o.patterns.push(...first.split('\n'));
  }
  return o;
}
