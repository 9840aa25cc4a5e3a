import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './test-support/tempDir.js';

// The built bin, as `npx oidc-kit-dev-provider` runs it; turbo's test task builds first.
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dir = tempDir('dev-provider-cli');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion. */
function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

/** Starts the CLI and resolves once it prints its ready line, with how long that took. */
function start(args: string[], env: Record<string, string> = {}) {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Run>((done) =>
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr })),
  );
  const ready = new Promise<{ line: string; issuer: string; ms: number }>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((candidate) => candidate.includes(' ready at '));
      const issuer = line === undefined ? undefined : / ready at (\S+) /.exec(line)?.[1];
      if (line !== undefined && issuer !== undefined) {
        done({ line, issuer, ms: performance.now() - startedAt });
      }
    });
    void exited.then((result) => fail(new Error(`CLI exited early: ${JSON.stringify(result)}`)));
  });
  return { child, ready, exited };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, 'localhost', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

beforeAll(() => {
  if (!existsSync(cli)) {
    throw new Error(`${cli} is missing: run \`npm run build\` in packages/dev-provider first.`);
  }
});

describe('oidc-kit-dev-provider', () => {
  it('starts, prints the issuer, serves discovery and stops on SIGTERM', async () => {
    const port = await freePort();
    const { child, ready, exited } = start([], { OIDC_KIT_PROVIDER_PORT: String(port) });
    const { line, issuer, ms } = await ready;
    // Reported, not asserted: timing assertions are not allowed in unit tests here.
    console.log(`oidc-kit-dev-provider startup: ${Math.round(ms)} ms (spawn to ready line)`);
    expect(line).toBe(
      `oidc-kit dev provider ready at http://localhost:${port} (users: alice, bob; clients: reference-app)`,
    );
    expect(issuer).toBe(`http://localhost:${port}`);
    const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
    };
    expect(metadata.issuer).toBe(issuer);

    child.kill('SIGTERM');
    const result = await exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('oidc-kit dev provider stopping (SIGTERM)');
  });

  it('prints the ready line even with --quiet, and --port beats the environment', async () => {
    const port = await freePort();
    const { child, ready, exited } = start(['--quiet', '--port', String(port)], {
      OIDC_KIT_PROVIDER_PORT: '1',
    });
    expect((await ready).issuer).toBe(`http://localhost:${port}`);
    child.kill('SIGINT');
    const result = await exited;
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('names the API scopes from OIDC_KIT_PROVIDER_API_SCOPES in its ready line', async () => {
    const port = await freePort();
    const { child, ready, exited } = start(['--quiet', '--port', String(port)], {
      OIDC_KIT_PROVIDER_API_SCOPES: 'invoices:read invoices:write',
    });
    expect((await ready).line).toBe(
      `oidc-kit dev provider ready at http://localhost:${port} (users: alice, bob; clients: reference-app; API scopes: invoices:read invoices:write)`,
    );
    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  });

  it('exits 1 with one line for an API scope that is not a scope-token', async () => {
    const result = await run([
      '--port',
      '0',
      '--api-scope',
      'invoices:read',
      '--api-scope',
      'rôle',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'oidc-kit-dev-provider: option --api-scope "rôle" is not a scope (RFC 6749 §3.3): use printable ASCII characters other than space, " and \\, e.g. invoices:read.\n',
    );
  });

  it('exits 1 with one line naming the port when the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, 'localhost', done));
    const { port } = blocker.address() as { port: number };
    try {
      const result = await run(['--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `oidc-kit-dev-provider: port ${port} is already in use. Stop the other process or choose another port with --port <n> or OIDC_KIT_PROVIDER_PORT.\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('exits 1 with one line naming the file, entry and field for a malformed users file', async () => {
    const path = join(dir, 'users.json');
    writeFileSync(
      path,
      JSON.stringify([
        { username: 'alice', password: 'alice' },
        { username: 'bob', password: 'bob', email_verified: 'yes' },
      ]),
    );
    const result = await run(['--port', '0', '--users-file', path]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `oidc-kit-dev-provider: users file ${path}, entry 2 ("bob"), field "email_verified": must be true or false.\n`,
    );
  });

  it('exits 1 with one line for a malformed clients file', async () => {
    const path = join(dir, 'clients.json');
    writeFileSync(path, JSON.stringify([{ client_id: 'e2e', redirect_uris: 'http://x.test/cb' }]));
    const result = await run(['--port', '0', '--clients-file', path]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `oidc-kit-dev-provider: clients file ${path}, entry 1 ("e2e"), field "redirect_uris": must be a non-empty array of non-empty strings, e.g. "redirect_uris": ["http://localhost:3000/callback"].`,
    ]);
  });

  it('exits 1 for an unknown flag, pointing at --help', async () => {
    const result = await run(['--prot', '4000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^oidc-kit-dev-provider: Unknown option '--prot'\. .*--help/);
  });

  it('prints usage for --help and the version for --version', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: oidc-kit-dev-provider [options]');
    expect(help.stdout).toContain('--access-token-ttl <s>');
    const version = await run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
