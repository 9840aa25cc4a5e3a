// Test helpers only (imported by *.test.ts, never by the server): keys, tokens, a tiny provider.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  base64url as base64urlCodec,
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  SignJWT,
} from 'jose';
import type {
  CryptoKey,
  JSONWebKeySet,
  JWK,
  JWTHeaderParameters,
  JWTPayload,
  JWTVerifyGetKey,
} from 'jose';

export const issuer = 'http://localhost:4000';
export const audience = 'http://localhost:4001';
export const appOrigin = 'http://localhost:5173';
/** Where clients call the API in tests: what DPoP proofs name in `htu`. */
export const publicOrigin = 'http://localhost:4001';

/** A signing key and its public JWK, as a provider would hold and publish them. */
export interface TestKey {
  readonly alg: string;
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

/** Generates a key pair for `alg`, its public half as a JWK with `kid`, `alg` and `use`. */
export async function createTestKey(alg = 'RS256', kid = `key-${alg}`): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { alg, kid, privateKey, publicJwk };
}

/** The JWKS publishing `keys`. */
export function jwksOf(...keys: TestKey[]): JSONWebKeySet {
  return { keys: keys.map((key) => key.publicJwk) };
}

/** A local key source (no network) publishing `keys`. */
export function localKeys(...keys: TestKey[]): JWTVerifyGetKey {
  return createLocalJWKSet(jwksOf(...keys));
}

/** What {@link signToken} may change from a good access token. */
export interface SignOptions {
  /** Claims to add or override; `undefined` removes a default claim. */
  readonly claims?: Record<string, unknown>;
  /** Protected header overrides; `typ: undefined` leaves `typ` out. */
  readonly header?: { alg?: string; typ?: string | undefined; kid?: string };
}

/**
 * Signs an access token that the API accepts unless told otherwise: `iss` {@link issuer}, `aud`
 * {@link audience}, `sub` `user-1`, five minutes to live, `typ: at+jwt`.
 */
export async function signToken(key: TestKey, options: SignOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const merged: Record<string, unknown> = {
    iss: issuer,
    aud: audience,
    sub: 'user-1',
    iat: now,
    exp: now + 300,
    scope: 'openid profile roles',
    ...options.claims,
  };
  const claims = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== undefined),
  ) as JWTPayload;
  const { typ, ...header } = { alg: key.alg, typ: 'at+jwt', kid: key.kid, ...options.header };
  return new SignJWT(claims)
    .setProtectedHeader(typ === undefined ? header : { ...header, typ })
    .sign(key.privateKey);
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An unsigned token (`alg: none`) with the claims of a good one: built by hand, as an attacker would. */
export function unsignedToken(claims: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: issuer,
    aud: audience,
    sub: 'user-1',
    iat: now,
    exp: now + 300,
    ...claims,
  };
  return `${base64url({ alg: 'none', typ: 'at+jwt' })}.${base64url(payload)}.`;
}

/** A port that was free a moment ago: nothing listens on it, so a connection is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** How {@link startTestProvider}'s endpoints answer; change it between requests. */
export interface ProviderBehaviour {
  /** `ok` serves the document; a number answers with that status; `hang` never answers. */
  discovery: 'ok' | number | 'hang' | 'not-json';
  jwks: 'ok' | number | 'hang' | 'not-json';
  /** Overrides for the discovery document's fields. */
  document: Record<string, unknown>;
}

/** A tiny OpenID provider on 127.0.0.1: a discovery document and a JWKS, nothing else. */
export interface TestProvider {
  /** `http://127.0.0.1:<port>`: the issuer, as the discovery document names it. */
  readonly issuer: string;
  readonly jwksUri: string;
  readonly behaviour: ProviderBehaviour;
  /** Requests received, as `METHOD path`. */
  readonly requests: string[];
  setKeys(...keys: TestKey[]): void;
  close(): Promise<void>;
}

/** Starts a {@link TestProvider} publishing `keys`. */
export async function startTestProvider(...keys: TestKey[]): Promise<TestProvider> {
  let jwks = jwksOf(...keys);
  const requests: string[] = [];
  const behaviour: ProviderBehaviour = { discovery: 'ok', jwks: 'ok', document: {} };
  const hanging = new Set<ServerResponse>();
  let base = '';

  const answer = (res: ServerResponse, mode: ProviderBehaviour['jwks'], body: () => unknown) => {
    if (mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (typeof mode === 'number') {
      res.writeHead(mode, { 'content-type': 'text/plain' }).end('no');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(mode === 'not-json' ? '<html>' : JSON.stringify(body()));
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url === '/.well-known/openid-configuration') {
      answer(res, behaviour.discovery, () => ({
        issuer: base,
        jwks_uri: `${base}/jwks`,
        ...behaviour.document,
      }));
    } else if (req.url === '/jwks') {
      answer(res, behaviour.jwks, () => jwks);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer: base,
    jwksUri: `${base}/jwks`,
    behaviour,
    requests,
    setKeys: (...next) => {
      jwks = jwksOf(...next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A logger that keeps what it is told, for assertions and a quiet test run. */
export function recordingLogger() {
  const warnings: string[] = [];
  const errors: unknown[] = [];
  return {
    warnings,
    errors,
    warn: (message: string) => void warnings.push(message),
    error: (message: string, error: unknown) => void errors.push([message, error]),
  };
}

/** A client's DPoP key pair (RFC 9449), and the thumbprint a bound token carries in `cnf.jkt`. */
export interface DPoPKey {
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly jkt: string;
}

export async function createDPoPKey(alg = 'ES256'): Promise<DPoPKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return { privateKey, publicJwk, jkt: await calculateJwkThumbprint(publicJwk, 'sha256') };
}

/** What {@link signProof} may change from a good proof. */
export interface ProofOptions {
  /** Claims to add or override; `undefined` removes a default claim. */
  readonly claims?: Record<string, unknown>;
  /** Protected header overrides (`typ`, `alg`, `jwk`). */
  readonly header?: Record<string, unknown>;
}

/**
 * Signs a DPoP proof that the API accepts for `GET url` with `accessToken`, unless told otherwise:
 * `typ: dpop+jwt`, ES256, the public key in `jwk`, `htm`, `htu`, `iat` now, a fresh `jti`, `ath`.
 */
export async function signProof(
  key: DPoPKey,
  url: string,
  accessToken: string,
  options: ProofOptions = {},
): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken));
  const merged: Record<string, unknown> = {
    htm: 'GET',
    htu: url,
    iat: Math.floor(Date.now() / 1000),
    jti: crypto.randomUUID(),
    ath: base64urlCodec.encode(new Uint8Array(digest)),
    ...options.claims,
  };
  const claims = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== undefined),
  ) as JWTPayload;
  return new SignJWT(claims)
    .setProtectedHeader({
      typ: 'dpop+jwt',
      alg: 'ES256',
      jwk: key.publicJwk,
      ...options.header,
    } as JWTHeaderParameters)
    .sign(key.privateKey);
}
