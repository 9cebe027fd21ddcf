// Why an SSH connection or command did not work, told apart so each gets the right response:
// a wrong password is a wrong answer, an unreachable host is something a person must fix.
export type SshFailureKind = 'auth' | 'unreachable' | 'timeout' | 'dropped' | 'aborted';
export type SshFailure = { kind: SshFailureKind; message: string };

type Ssh2Error = Error & { level?: string; code?: string };

/** Classifies an error from ssh2's client. */
export function classifySshError(err: unknown, where: string): SshFailure {
  const e = err as Ssh2Error;
  if (e.level === 'client-authentication')
    return { kind: 'auth', message: `${where}: the login was refused (wrong password or user)` };
  if (e.level === 'client-timeout')
    return { kind: 'timeout', message: `${where}: no SSH handshake in time; is the host up?` };
  const code = e.code ?? '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(code)) {
    return {
      kind: 'unreachable',
      message: `${where}: cannot reach the host (${code}); check the target's host and port`,
    };
  }
  if (code === 'ETIMEDOUT') return { kind: 'timeout', message: `${where}: the connection timed out` };
  return { kind: 'dropped', message: `${where}: ${e.message || 'the connection failed'}` };
}
