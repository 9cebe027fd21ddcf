// ssh from one level to the next inside the range, and the setuid helpers of levels 19 and 20.
import { defineCommand, latin1FromBytes } from 'just-bash';
import ssh2 from 'ssh2';
import {
  GIT_SHELL,
  UPPERSHELL,
  loginIdentity,
  loginShell,
  passwordLevel,
  setuidIdentity,
  userExists,
} from '../world/accounts.ts';
import { passwordLogin } from './password-prompt.ts';
import type { CommandEnv } from './command-env.ts';
import { describeFsError, fail, ok, parseFlags } from './command-env.ts';
import { isLocalHost } from './network-commands.ts';

/** Quotes words for a shell command line. */
export function shellJoin(words: string[]): string {
  return words.map((w) => (/^[\w./:=@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export function loginCommands(env: CommandEnv) {
  const { fs, world, session } = env;

  const ssh = defineCommand('ssh', async (args, ctx) => {
    const { flags, operands } = parseFlags(args, ['i', 'p', 'l', 'o', 'F', 'E']);
    const [destination, ...command] = operands;
    if (!destination)
      return fail(
        'usage: ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-i identity_file] [-l login_name] [-p port] destination [command [argument ...]]',
        255,
      );
    const at = destination.lastIndexOf('@');
    const user =
      at >= 0 ? destination.slice(0, at) : typeof flags.get('l') === 'string' ? String(flags.get('l')) : fs.who.user;
    const host = at >= 0 ? destination.slice(at + 1) : destination;
    if (!isLocalHost(host)) return fail(`ssh: Could not resolve hostname ${host}: Name or service not known`, 255);
    const port = Number(flags.get('p') === undefined ? 22 : flags.get('p'));
    if (port !== 22 && port !== 2220 && port !== session.sshPort)
      return fail(`ssh: connect to host ${host} port ${port}: Connection refused`, 255);
    const keyPath = flags.get('i');
    let stderr = '';
    let authenticated = false;
    if (typeof keyPath === 'string') {
      const path = fs.resolvePath(ctx.cwd, keyPath);
      try {
        const stat = await fs.stat(path);
        const owner = (await fs.ownership(path)).owner;
        // OpenSSH ignores a key that its owner left readable by others.
        if (owner === fs.who.euser && (stat.mode & 0o077) !== 0) {
          stderr += `@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nPermissions 0${(stat.mode & 0o777).toString(8)} for '${keyPath}' are too open.\nIt is required that your private key files are NOT accessible by others.\nThis private key will be ignored.\nLoad key "${keyPath}": bad permissions\n`;
        } else {
          const parsed = ssh2.utils.parseKey(await fs.readFile(path));
          const key = Array.isArray(parsed) ? parsed[0] : parsed;
          const expected = world.keys.get(user);
          if (key && !(key instanceof Error) && expected && key.getPublicSSH().equals(expected.publicBlob))
            authenticated = true;
          else if (!key || key instanceof Error) stderr += `Load key "${keyPath}": invalid format\n`;
        }
      } catch (err) {
        stderr += `Warning: Identity file ${keyPath} not accessible: ${describeFsError(err)}.\n`;
      }
    }
    const level = passwordLevel(user);
    if (!authenticated && level !== undefined && user !== 'root') {
      authenticated = await passwordLogin(
        env,
        ctx,
        `${user}@${host}'s password: `,
        (given) => given === world.passwords[level],
      );
    }
    if (!authenticated || !userExists(user))
      return fail(`${stderr}${user}@${host}: Permission denied (publickey,password).`, 255);
    const who = loginIdentity(user);
    const home = `/home/${user}`;
    const shell = loginShell(user);
    // Login shells other than bash ignore the command (sshd passes it to them with -c).
    if (shell !== '/bin/bash' && !(session.openShell && command.length === 0)) {
      if (shell === GIT_SHELL) return fail(`${stderr}fatal: Interactive git shell is not enabled.`, 128);
      if (shell === UPPERSHELL) return ok('WELCOME TO THE UPPERCASE SHELL\n>> ', stderr);
      const text = await fs
        .as(who)
        .readFile(`${home}/text.txt`)
        .catch(() => '');
      return ok(text, stderr);
    }
    if (command.length) {
      const result = await env.runAs(
        who,
        shellJoin(command).replace(/^'(.*)'$/, '$1'),
        latin1FromBytes(ctx.stdin),
        home,
      );
      return { ...result, stderr: stderr + result.stderr };
    }
    if (session.openShell) return ok(session.openShell(who), stderr);
    const script = latin1FromBytes(ctx.stdin);
    stderr += 'Pseudo-terminal will not be allocated because stdin is not a terminal.\n';
    if (!script.trim()) return ok('', stderr);
    const result = await env.runAs(who, script, '', home);
    return { ...result, stderr: stderr + result.stderr };
  });

  /** Dispatch for emulated executables: checks execute permission, then runs as the file's owner if setuid. */
  const program = defineCommand('__practice_program', async (args, ctx) => {
    const [path = '', ...rest] = args;
    let mode: number;
    try {
      mode = (await fs.stat(path)).mode;
    } catch (err) {
      return fail(`bash: ${path}: ${describeFsError(err)}`, 126);
    }
    const owner = await fs.ownership(path);
    if (!owner.program || !(await fs.may(path, mode, 1))) return fail(`bash: ${path}: Permission denied`, 126);
    const who = mode & 0o4000 ? setuidIdentity(fs.who, owner.owner) : fs.who;
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (owner.program === 'run-as') {
      if (rest.length === 0) return ok(`Run a command as another user.\n  Example: ./${name} id\n`);
      return env.runAs(who, shellJoin(rest), latin1FromBytes(ctx.stdin), ctx.cwd);
    }
    if (owner.program === 'suconnect') {
      if (rest.length === 0) {
        return ok(
          `Usage: ./${name} <portnumber>\nThis program will connect to the given port on localhost using TCP. If it receives the correct password from the other side, the next password is transmitted back.\n`,
        );
      }
      const port = Number(rest[0]);
      const sent = session.listeners.get(port);
      if (sent === undefined)
        return fail(
          `ERROR: Can't connect to port ${rest[0]}: nothing listens there (start "nc -l -p ${rest[0]}" first)`,
        );
      session.listeners.delete(port);
      const line = (sent.split('\n')[0] ?? '').trim();
      if (line !== world.passwords[20])
        return fail(`Read: ${line}\nERROR: This doesn't match the current password!`, 1, `Read: ${line}\n`);
      // The listener's side of the conversation: what nc -l would print when the reply arrives.
      return ok(`Read: ${line}\nPassword matches, sending next password\n${world.passwords[21]}\n`);
    }
    return fail(`bash: ${path}: cannot execute binary file`, 126);
  });

  return [ssh, program];
}
