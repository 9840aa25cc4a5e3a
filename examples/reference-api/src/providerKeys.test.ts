import { errors, jwtVerify } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderUnavailableError } from './ProviderUnavailableError';
import { createProviderKeys, discoverJwksUri, discoveryUrl } from './providerKeys';
import { audience, createTestKey, signToken, startTestProvider } from './testSupport';
import type { TestKey, TestProvider } from './testSupport';

let key: TestKey;
let provider: TestProvider;

beforeAll(async () => {
  key = await createTestKey('ES256');
});

afterEach(async () => {
  vi.useRealTimers();
  await provider?.close();
});

async function verifyWith(keys: ReturnType<typeof createProviderKeys>, signer = key) {
  const token = await signToken(signer, { claims: { iss: provider.issuer } });
  return jwtVerify(token, keys, { issuer: provider.issuer, audience });
}

describe('discoveryUrl', () => {
  it('appends /.well-known/openid-configuration, with or without a trailing slash', () => {
    expect(discoveryUrl('https://tenant.auth0.com/').href).toBe(
      'https://tenant.auth0.com/.well-known/openid-configuration',
    );
    expect(discoveryUrl('https://kc.example/realms/app').href).toBe(
      'https://kc.example/realms/app/.well-known/openid-configuration',
    );
  });
});

describe('discoverJwksUri', () => {
  it("reads jwks_uri from the issuer's discovery document", async () => {
    provider = await startTestProvider(key);
    expect((await discoverJwksUri(provider.issuer)).href).toBe(provider.jwksUri);
  });

  it.each([
    [
      'an issuer that is not the configured one',
      { document: { issuer: 'http://other' } },
      /names the issuer "http:\/\/other"/,
    ],
    ['a jwks_uri that is not a URL', { document: { jwks_uri: 'jwks' } }, /no usable jwks_uri/],
    [
      'a jwks_uri that is not http(s)',
      { document: { jwks_uri: 'file:///etc/passwd' } },
      /no usable jwks_uri/,
    ],
    ['a non-200 answer', { discovery: 404 }, /answered 404/],
    ['a redirect, which is not followed', { discovery: 302 }, /answered 302/],
    ['an answer that is not JSON', { discovery: 'not-json' }, /did not answer JSON/],
  ] as const)('refuses %s', async (_, behaviour, message) => {
    provider = await startTestProvider(key);
    Object.assign(provider.behaviour, behaviour);
    const failure = discoverJwksUri(provider.issuer);
    await expect(failure).rejects.toThrow(ProviderUnavailableError);
    await expect(failure).rejects.toThrow(message);
  });
});

describe('createProviderKeys', () => {
  it('fetches nothing until a key is needed, then discovers the JWKS once', async () => {
    provider = await startTestProvider(key);
    const keys = createProviderKeys({ issuer: provider.issuer });
    expect(provider.requests).toEqual([]);

    await Promise.all([verifyWith(keys), verifyWith(keys), verifyWith(keys)]);
    await verifyWith(keys);
    expect(provider.requests).toEqual(['GET /.well-known/openid-configuration', 'GET /jwks']);
  });

  it('uses a configured JWKS URL without discovery', async () => {
    provider = await startTestProvider(key);
    provider.behaviour.discovery = 500;
    const keys = createProviderKeys({ issuer: provider.issuer, jwksUri: provider.jwksUri });
    await verifyWith(keys);
    expect(provider.requests).toEqual(['GET /jwks']);
  });

  it('tries discovery again on the next token after a failure', async () => {
    provider = await startTestProvider(key);
    provider.behaviour.discovery = 500;
    const keys = createProviderKeys({ issuer: provider.issuer });
    await expect(verifyWith(keys)).rejects.toThrow(ProviderUnavailableError);
    provider.behaviour.discovery = 'ok';
    await verifyWith(keys);
    expect(provider.requests).toEqual([
      'GET /.well-known/openid-configuration',
      'GET /.well-known/openid-configuration',
      'GET /jwks',
    ]);
  });

  it('picks up a rotated key: an unknown kid refetches the JWKS, at most every 30 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    provider = await startTestProvider(key);
    const keys = createProviderKeys({ issuer: provider.issuer });
    await verifyWith(keys);
    const next = await createTestKey('ES256', 'rotated');
    provider.setKeys(key, next);
    const jwksFetches = () => provider.requests.filter((request) => request === 'GET /jwks');

    // Within jose's cooldown an unknown kid is refused without asking the provider again, so a
    // stream of forged kids cannot make the API hammer it.
    await expect(verifyWith(keys, next)).rejects.toThrow(errors.JWKSNoMatchingKey);
    expect(jwksFetches()).toHaveLength(1);

    vi.setSystemTime(Date.now() + 31_000);
    await verifyWith(keys, next);
    expect(jwksFetches()).toHaveLength(2);
  });
});
