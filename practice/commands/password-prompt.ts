// How ssh and git inside the range get a password, as OpenSSH does: from the program named in
// SSH_ASKPASS when SSH_ASKPASS_REQUIRE=force (or when there is no terminal), else from the person
// at the terminal. Without either, password logins fail, as they do for OpenSSH with no tty.
import type { ExecResult } from 'just-bash';
import type { CommandEnv } from './command-env.ts';
import { shellJoin } from './login-commands.ts';

type Ctx = { env: Map<string, string>; cwd: string };

/** One password, or null when nobody can give one. */
export async function askPassword(env: CommandEnv, ctx: Ctx, prompt: string): Promise<string | null> {
  const program = ctx.env.get('SSH_ASKPASS');
  if (program && (ctx.env.get('SSH_ASKPASS_REQUIRE') === 'force' || !env.ask)) {
    const result: ExecResult = await env.runAs(env.fs.who, shellJoin([program, prompt]), '', ctx.cwd);
    return result.exitCode === 0 ? (result.stdout.split('\n')[0] ?? '') : null;
  }
  return env.ask ? env.ask(prompt) : null;
}

/** Up to three tries, as OpenSSH allows; true once `check` accepts one. */
export async function passwordLogin(
  env: CommandEnv,
  ctx: Ctx,
  prompt: string,
  check: (password: string) => boolean,
): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // At a terminal OpenSSH says why it asks again; an askpass program is simply asked again.
    const password = await askPassword(
      env,
      ctx,
      attempt > 0 && env.ask ? `Permission denied, please try again.\n${prompt}` : prompt,
    );
    if (password === null) return false;
    if (check(password)) return true;
  }
  return false;
}
