import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PortInUseError, startServer } from './server';
import type { RunningServer } from './server';
import {
  appOrigin,
  audience,
  closedPort,
  createDPoPKey,
  createTestKey,
  signProof,
  signToken,
  startTestProvider,
} from './testSupport';
import type { TestKey, TestProvider } from './testSupport';

let key: TestKey;
let provider: TestProvider | undefined;
let server: RunningServer | undefined;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  key = await createTestKey('RS256');
});

afterEach(async () => {
  await server?.close();
  await provider?.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
  server = undefined;
  provider = undefined;
});

/** Holds a port on localhost, as another program would. */
async function occupyPort(): Promise<number> {
  const blocker = createServer();
  blocker.listen(0, 'localhost');
  await once(blocker, 'listening');
  cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  return (blocker.address() as AddressInfo).port;
}

describe('startServer', () => {
  it('serves /health and /me over HTTP, with keys discovered from a real provider', async () => {
    provider = await startTestProvider(key);
    server = await startServer({ port: 0, issuer: provider.issuer, audience, appOrigin });
    expect(server.url).toBe(`http://localhost:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect(provider.requests).toEqual([]);

    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const token = await signToken(key, {
      claims: { iss: provider.issuer, sub: 'ada', name: 'Ada', roles: ['admin'], scope: 'openid' },
    });
    const me = await fetch(`${server.url}/me`, {
      headers: { Authorization: `Bearer ${token}`, Origin: appOrigin },
    });
    expect(me.status).toBe(200);
    expect(me.headers.get('access-control-allow-origin')).toBe(appOrigin);
    expect(await me.json()).toEqual({ sub: 'ada', name: 'Ada', roles: ['admin'], scope: 'openid' });
    expect(provider.requests).toEqual(['GET /.well-known/openid-configuration', 'GET /jwks']);

    const refused = await fetch(`${server.url}/me?access_token=${token}`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('checks DPoP proofs against its own address, whatever Host the client sends', async () => {
    provider = await startTestProvider(key);
    server = await startServer({ port: 0, issuer: provider.issuer, audience, appOrigin });
    const dpopKey = await createDPoPKey();
    const token = await signToken(key, {
      claims: { iss: provider.issuer, cnf: { jkt: dpopKey.jkt } },
    });
    const status = async (htu: string, host: string) => {
      const proof = await signProof(dpopKey, htu, token);
      // node:http, not fetch: the Host header is sent as given.
      const sent = request(`${server?.url}/me`, {
        headers: { Host: host, Authorization: `DPoP ${token}`, DPoP: proof },
      });
      sent.end();
      const [response] = (await once(sent, 'response')) as [IncomingMessage];
      response.resume();
      return response.statusCode;
    };
    expect(await status(`${server.url}/me`, `localhost:${server.port}`)).toBe(200);
    // A proof made for another API, replayed here under that API's name.
    expect(await status('http://other-api.example/me', 'other-api.example')).toBe(401);
  });

  describe('headers sent twice or too large, as only a raw HTTP client sends them', () => {
    /** `GET path` with `headers` sent as given (an array value: one header line each). */
    async function send(path: string, headers: OutgoingHttpHeaders) {
      const sent = request(`${server?.url}${path}`, { headers });
      sent.end();
      const [response] = (await once(sent, 'response')) as [IncomingMessage];
      let body = '';
      for await (const chunk of response) body += String(chunk);
      return {
        status: response.statusCode,
        challenge: response.headers['www-authenticate'],
        body,
      };
    }

    beforeEach(async () => {
      provider = await startTestProvider(key);
      server = await startServer({ port: 0, issuer: provider.issuer, audience, appOrigin });
    });

    it('refuses two Authorization headers, rather than taking the first or the last', async () => {
      const good = await signToken(key, { claims: { iss: provider?.issuer } });
      const answer = await send('/me', { Authorization: [`Bearer ${good}`, `Bearer ${good}`] });
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe(
        'Bearer error="invalid_token", error_description="The Authorization header is malformed."',
      );
    });

    it('refuses a bound token with two DPoP headers, each a good proof', async () => {
      const dpopKey = await createDPoPKey();
      const token = await signToken(key, {
        claims: { iss: provider?.issuer, cnf: { jkt: dpopKey.jkt } },
      });
      const proof = () => signProof(dpopKey, `${server?.url}/me`, token);
      const answer = await send('/me', {
        Authorization: `DPoP ${token}`,
        DPoP: [await proof(), await proof()],
      });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({
        error: 'invalid_dpop_proof',
        error_description: 'Send exactly one DPoP proof with a DPoP-bound token.',
      });
    });

    it('answers 431 to headers over the size limit, and goes on serving', async () => {
      const huge = await send('/me', { Authorization: `Bearer ${'a'.repeat(20_000)}` });
      expect(huge.status).toBe(431);
      const token = await signToken(key, { claims: { iss: provider?.issuer } });
      expect((await send('/me', { Authorization: `Bearer ${token}` })).status).toBe(200);
    });
  });

  it('answers 503 over HTTP when the provider is down, and 200 once it is up', async () => {
    provider = await startTestProvider(key);
    provider.behaviour.jwks = 500;
    server = await startServer({
      port: 0,
      issuer: provider.issuer,
      audience,
      appOrigin,
      logger: { warn: () => {}, error: () => {} },
    });
    const token = await signToken(key, { claims: { iss: provider.issuer } });
    const headers = { Authorization: `Bearer ${token}` };
    expect((await fetch(`${server.url}/me`, { headers })).status).toBe(503);
    provider.behaviour.jwks = 'ok';
    expect((await fetch(`${server.url}/me`, { headers })).status).toBe(200);
  });

  it('rejects with a PortInUseError naming the port and the variable to change', async () => {
    const port = await occupyPort();
    await expect(startServer({ port, portVariable: 'PORT' })).rejects.toThrow(
      new PortInUseError(
        `reference API: port ${port} is already in use; set PORT to another port.`,
      ),
    );
  });
});

describe('the server program', () => {
  const entry = fileURLToPath(new URL('./server.ts', import.meta.url));

  function run(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    cleanups.push(() => void child.kill('SIGKILL'));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    return { child, exited, output: () => ({ stdout, stderr }) };
  }

  async function until(condition: () => boolean, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('prints its address and issuer, answers, and exits 0 on SIGTERM', async () => {
    const port = await closedPort();
    const program = run({ REFERENCE_API_PORT: String(port), OIDC_ISSUER: 'http://localhost:4999' });
    await until(() => program.output().stdout.includes('\n'));
    expect(program.output().stdout).toBe(
      `reference API ready at http://localhost:${port} (issuer http://localhost:4999)\n`,
    );
    expect(await (await fetch(`http://localhost:${port}/health`)).json()).toEqual({
      status: 'ok',
    });

    program.child.kill('SIGTERM');
    expect(await program.exited).toEqual([0, null]);
    expect(program.output().stderr).toBe('');
  }, 20_000);

  it('exits 1 with one line naming the port and variable when the port is taken', async () => {
    const port = await occupyPort();
    const program = run({ PORT: String(port) });
    expect(await program.exited).toEqual([1, null]);
    expect(program.output()).toEqual({
      stdout: '',
      stderr: `reference API: port ${port} is already in use; set PORT to another port.\n`,
    });
  }, 20_000);

  it('exits 1 with one line naming a variable set to something unusable', async () => {
    const program = run({ APP_ORIGIN: 'http://localhost:5173/' });
    expect(await program.exited).toEqual([1, null]);
    expect(program.output().stderr).toBe(
      'APP_ORIGIN must be an origin such as http://localhost:5173, got "http://localhost:5173/"\n',
    );
  }, 20_000);
});
