// whoami and id: who the shell runs as, including the effective user under a setuid program.
import { defineCommand } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { ok } from './command-env.ts';
import { uidOf } from '../world/accounts.ts';

export function identityCommands(env: CommandEnv) {
  return [
    defineCommand('whoami', async () => ok(`${env.fs.who.euser}\n`)),
    defineCommand('id', async (args) => {
      const who = env.fs.who;
      if (args.includes('-u')) return ok(`${args.includes('-n') ? who.euser : who.euid}\n`);
      if (args.includes('-g')) return ok(`${args.includes('-n') ? who.groups[0] : uidOf(who.groups[0] ?? who.user)}\n`);
      const groups = who.groups.map((g) => `${uidOf(g)}(${g})`).join(',');
      const euid = who.euid !== who.uid ? ` euid=${who.euid}(${who.euser})` : '';
      return ok(
        `uid=${who.uid}(${who.user}) gid=${uidOf(who.groups[0] ?? who.user)}(${who.groups[0]})${euid} groups=${groups}\n`,
      );
    }),
  ];
}
