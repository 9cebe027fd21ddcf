// The container images of the proxy and the range, checked without a Docker engine (none here, and CI
// builds no image): each Dockerfile passes the Docker language server's validator, and parsed, it runs
// its program as a non-root user, with no secret in it, with only settings the program reads, copying
// every file the program loads and installing exactly the packages it imports, on the port it listens
// on. Then its CMD and HEALTHCHECK run here as the image would run them, and SIGTERM stops it cleanly.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { validate, ValidationSeverity } from 'dockerfile-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { execForm, finalStage, readDockerfile } from './dockerfile-facts.ts';
import { readDockerignore } from './dockerignore.ts';
import { importClosure } from './import-closure.ts';
import { programs } from './program-env.ts';

const root = join(import.meta.dirname, '../..');
const sent = readDockerignore(join(root, '.dockerignore'));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
/** Names that hold a secret: an image must never set them, nor take them as build arguments. */
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|API_KEY|PRIVATE_KEY/;

describe.each(programs)('$dockerfile ($name)', (program) => {
  const facts = readDockerfile(join(root, program.dockerfile));
  const last = finalStage(facts);
  const keywords = last.map((i) => i.getKeyword());
  const closure = importClosure(root, program.entry);

  it('passes the Docker language server validator with no error or warning', () => {
    const problems = validate(facts.text)
      .filter((d) => d.severity === ValidationSeverity.ERROR || d.severity === ValidationSeverity.WARNING)
      .map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    expect(problems.join('\n')).toBe('');
  });

  it('builds on Node 22 or later, which runs the TypeScript sources directly', () => {
    for (const stage of facts.stages) expect(stage.image).toMatch(/^node:(2[2-9]|[3-9]\d)\b/);
  });

  it('runs as a user that is not root, from the USER before its CMD to the end', () => {
    const users = last.flatMap((i, at) => (i.getKeyword() === 'USER' ? [{ at, user: i.getArgumentsContent() }] : []));
    expect(users.length).toBeGreaterThan(0);
    for (const { user } of users) expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(users[0]!.at).toBeLessThan(keywords.lastIndexOf('CMD'));
  });

  it('bakes in no secret: no ENV or ARG names one, and every ENV is a setting the program reads', () => {
    const names = [...facts.env, ...facts.args].map((s) => s.name);
    expect(names.filter((name) => SECRET_NAME.test(name))).toEqual([]);
    expect(facts.env.map((e) => e.name).filter((name) => !program.env.includes(name))).toEqual([]);
    // A setting is the environment's to give at run time, never a build argument.
    expect(facts.args.map((a) => a.name).filter((name) => program.env.includes(name))).toEqual([]);
  });

  it('copies files that exist and that .dockerignore lets into the build context', () => {
    const sources = facts.copies.filter((c) => c.from === null).flatMap((c) => c.sources);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(join(root, source)), source).toBe(true);
      expect(sent(normalize(source)), source).toBe(true);
    }
    for (const kept of ['.env', '.dev.vars', '.state/practice/host_key', 'node_modules/zod/package.json']) {
      expect(sent(kept), kept).toBe(false);
    }
  });

  it('runs the program with CMD ["node", entry], and copies every file the entry loads to the same path', () => {
    expect(last.filter((i) => i.getKeyword() === 'ENTRYPOINT')).toEqual([]);
    const cmd = last.findLast((i) => i.getKeyword() === 'CMD');
    expect(cmd && execForm(cmd)).toEqual(['node', program.entry]);
    expect(existsSync(join(root, program.entry))).toBe(true);
    const copied = facts.copies
      .filter((c) => c.from === null && c.stage === facts.stages.length - 1)
      .flatMap((c) =>
        c.sources.map((source) => ({ source: normalize(source), destination: normalize(c.destination) })),
      );
    for (const { source, destination } of copied) expect(destination).toBe(source);
    const missing = closure.files.filter(
      (file) => !copied.some(({ source }) => file === source || file.startsWith(`${source}/`)),
    );
    expect(missing).toEqual([]);
    expect(closure.files.filter((file) => !sent(file))).toEqual([]);
    expect(last.find((i) => i.getKeyword() === 'WORKDIR')?.getArgumentsContent()).toBe('/app');
  });

  it('installs exactly the npm packages the program imports, from package.json dependencies', () => {
    const listed =
      facts.args
        .find((a) => a.name === 'PACKAGES')
        ?.value?.replace(/^"|"$/g, '')
        .split(/\s+/) ?? [];
    const missing = closure.packages.filter((name) => !listed.includes(name));
    const extra = listed.filter((name) => !closure.packages.includes(name));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    for (const name of closure.packages) expect(manifest.dependencies[name], name).toBeDefined();
    expect(facts.text).toMatch(/node scripts\/keep-dependencies\.ts \$\{PACKAGES\}\s*\\?\s*&& npm install --omit=dev/);
  });

  it('exposes the port the program listens on in the image', () => {
    const port = Number(facts.env.find((e) => e.name === program.portVariable)?.value ?? program.defaultPort);
    expect(last.filter((i) => i.getKeyword() === 'EXPOSE').map((i) => Number(i.getArgumentsContent()))).toEqual([port]);
  });

  describe('run here as the image runs it', () => {
    const state = mkdtempSync(join(tmpdir(), `deploy-${program.name}-`));
    let child: ChildProcess | null = null;
    afterAll(() => {
      child?.kill('SIGKILL');
      rmSync(state, { recursive: true, force: true });
    });

    it('is healthy by its HEALTHCHECK once started, exits 0 on SIGTERM, and is unhealthy after', async () => {
      const healthcheck = last.find((i) => i.getKeyword() === 'HEALTHCHECK');
      const probe = healthcheck && execForm(healthcheck);
      expect(probe?.[0]).toBe('node');
      const port = await freePort();
      // The image's ENV, then what a platform would give: a port, loopback only (this is a shared
      // machine), a secret, and a state folder in place of the image's volume.
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        ...Object.fromEntries(facts.env.map((e) => [e.name, e.value ?? ''])),
        [program.portVariable]: String(port),
        ...(program.name === 'proxy'
          ? { PROXY_HOST: '127.0.0.1', PROXY_SECRET: randomBytes(24).toString('base64url') }
          : {
              PRACTICE_HOST: '127.0.0.1',
              PRACTICE_HOST_KEY: join(state, 'host_key'),
              PRACTICE_SEED_FILE: join(state, 'seed'),
            }),
      };
      const healthy = () =>
        new Promise<boolean>((resolve) =>
          execFile(process.execPath, probe!.slice(1), { cwd: root, env, timeout: 10_000 }, (err) => resolve(!err)),
        );
      expect(await healthy()).toBe(false);
      const running = spawn(process.execPath, [program.entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = running;
      let output = '';
      running.stdout!.on('data', (d) => (output += d));
      running.stderr!.on('data', (d) => (output += d));
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        running.once('exit', (code, signal) => resolve({ code, signal })),
      );
      // Within the HEALTHCHECK's start period and retries; a slow machine may need several probes.
      let ok = false;
      for (let tries = 0; tries < 60 && !ok && running.exitCode === null; tries++) {
        ok = await healthy();
        if (!ok) await new Promise((r) => setTimeout(r, 500));
      }
      expect(ok, output).toBe(true);
      // As PID 1, node gets no default action for SIGTERM: only its own handler can stop it.
      running.kill('SIGTERM');
      expect(await exited, output).toEqual({ code: 0, signal: null });
      child = null;
      expect(await healthy()).toBe(false);
    }, 60_000);
  });
});
