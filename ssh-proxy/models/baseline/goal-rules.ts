// General shell know-how keyed on the wording of a goal: "a file called X" means cat X, "N bytes"
// means find -size Nc, "base64" means base64 -d. No rule knows a level number or an answer.
import { quotePath } from './shell-quote.ts';
import type { Candidate } from './follow-ups.ts';

type Rule = { when: RegExp; candidates: (m: RegExpExecArray, goal: string, password: string) => Candidate[] };

const dataFile = (goal: string): string => /\b([\w-]+\.txt)\b/.exec(goal)?.[1] ?? 'data.txt';

const RULES: Rule[] = [
  {
    when: /\bfile (?:called |named )?(?:"([^"]+)"|([^\s"]+)) in\b/i,
    candidates: (m) => {
      const name = m[1] ?? m[2] ?? '';
      return [{ command: `cat ${quotePath(name)}`, why: `The goal names the file "${name}"; reading it.` }];
    },
  },
  {
    when: /hidden file in the ([\w.-]+) directory/i,
    candidates: (m) => [
      { command: `ls -la ${quotePath(m[1] ?? '.')}`, why: 'Hidden files start with a dot; ls -a shows them.' },
    ],
  },
  {
    when: /human-readable file in the ([\w.-]+) directory/i,
    candidates: (m) => [{ command: `file ./${m[1]}/*`, why: 'file tells text from binary data.' }],
  },
  {
    when: /(\d+) bytes/i,
    candidates: (m, goal) => {
      const user = /owned by user ([\w-]+)/i.exec(goal)?.[1];
      const group = /(?:owned by )?group ([\w-]+)/i.exec(goal)?.[1];
      const under = /under ([\w.-]+)/i.exec(goal)?.[1];
      const everywhere = /on the server|anywhere/i.test(goal);
      const parts = ['find', everywhere ? '/' : (under ?? '.'), '-type f'];
      if (user) parts.push(`-user ${user}`);
      if (group) parts.push(`-group ${group}`);
      parts.push(`-size ${m[1]}c`);
      if (/not executable/i.test(goal)) parts.push('! -executable');
      if (everywhere) parts.push('2>/dev/null');
      return [{ command: parts.join(' '), why: 'The goal describes the file by its properties; find can match them.' }];
    },
  },
  {
    when: /next to the word ([\w-]+)/i,
    candidates: (m, goal) => [
      { command: `grep ${m[1]} ${dataFile(goal)}`, why: `grep finds the line with "${m[1]}".` },
    ],
  },
  {
    when: /occurs exactly once|only line that occurs/i,
    candidates: (_m, goal) => [
      {
        command: `sort ${dataFile(goal)} | uniq -u`,
        why: 'uniq -u keeps the lines that occur once; it needs sorted input.',
      },
    ],
  },
  {
    when: /human-readable strings/i,
    candidates: (_m, goal) => [
      { command: `strings ${dataFile(goal)} | grep ==`, why: 'strings pulls readable text out of binary data.' },
    ],
  },
  {
    when: /base64/i,
    candidates: (_m, goal) => [{ command: `base64 -d ${dataFile(goal)}`, why: 'The data is base64; decoding it.' }],
  },
  {
    when: /rotated by 13|rot13/i,
    candidates: (_m, goal) => [
      { command: `cat ${dataFile(goal)} | tr 'A-Za-z' 'N-ZA-Mn-za-m'`, why: 'Rotating by 13 again undoes ROT13.' },
    ],
  },
  {
    when: /hexdump/i,
    candidates: (_m, goal) => [
      { command: `cat ${dataFile(goal)}`, why: 'Reading the hex dump; its bytes can be unpacked.' },
    ],
  },
  {
    when: /password of the current level to port (\d+)/i,
    candidates: (m, goal, password) => {
      const tls = /SSL|TLS/.test(goal);
      const client = tls ? `openssl s_client -connect localhost:${m[1]} -quiet` : `nc localhost ${m[1]}`;
      return [
        {
          command: `echo ${password} | ${client}`,
          why: `Sending the current password to port ${m[1]}${tls ? ' over TLS' : ''}.`,
        },
      ];
    },
  },
  {
    when: /(passwords\.old) and (passwords\.new)/i,
    candidates: (m) => [{ command: `diff ${m[1]} ${m[2]}`, why: 'diff shows the line that changed.' }],
  },
];

/** The candidates the goal's wording suggests, in rule order. */
export function goalCandidates(goal: string, currentPassword: string): Candidate[] {
  return RULES.flatMap((rule) => {
    const m = rule.when.exec(goal);
    return m ? rule.candidates(m, goal, currentPassword) : [];
  });
}
