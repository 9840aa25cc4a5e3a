import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { generateSigningKey, loadSigningKeys } from './loadSigningKeys.js';
import { startDevProvider } from './startDevProvider.js';
import { exchangeCode, signIn } from './test-support/oidcFlow.js';
import { tempDir } from './test-support/tempDir.js';

const dir = tempDir('dev-provider-keys');

describe('loadSigningKeys', () => {
  it('generates a private RS256 key with a kid when no file is given', async () => {
    const { keys } = await loadSigningKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys[0]?.d).toEqual(expect.any(String));
    expect(keys[0]?.kid).toEqual(expect.any(String));
  });

  it('writes a missing keys file, private to the user, and reads it back next time', async () => {
    const path = join(dir, 'nested', 'keys.json');
    const first = await loadSigningKeys(path);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const second = await loadSigningKeys(path);
    expect(second).toEqual(first);
  });

  it.each([
    ['no keys array', { keys: [] }, 'keys', /at least one private RSA JWK/],
    ['an EC key', { keys: [{ kty: 'EC', kid: 'k1' }] }, 'kty', /must be "RSA"/],
    ['a public key', 'public', 'd', /is missing/],
  ])(
    'refuses a keys file with %s, naming the file and field',
    async (_label, content, field, problem) => {
      let value: unknown = content;
      if (content === 'public') {
        const { d: _d, ...publicKey } = await generateSigningKey();
        value = { keys: [publicKey] };
      }
      const path = join(dir, `${field}.json`);
      writeFileSync(path, JSON.stringify(value));
      const error = await loadSigningKeys(path).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DevProviderConfigError);
      expect((error as DevProviderConfigError).field).toBe(field);
      expect((error as Error).message).toContain(`keys file ${path}`);
      expect((error as Error).message).toMatch(problem);
    },
  );

  // Each of these was accepted, then every token request failed with a 500 (or oidc-provider threw
  // a bare Error with a stack trace): the provider signs ID and access tokens with RS256.
  it.each([
    ['a 1024-bit key', 'small', 0, 'n', /2048 bits/],
    ['an encryption key', { use: 'enc' }, 0, 'use', /must be "sig"/],
    ['another algorithm', { alg: 'RS384' }, 0, 'alg', /must be "RS256"/],
    ['key_ops without sign', { key_ops: ['verify'] }, 0, 'key_ops', /must include "sign"/],
    ['a kid that is not a string', { kid: 5 }, 0, 'kid', /non-empty string/],
    ['a kid used twice', 'duplicate', 1, 'kid', /already used by entry 1/],
  ] as const)(
    'refuses a keys file with %s, which cannot sign RS256 tokens, naming the field',
    async (label, change, index, field, problem) => {
      const key = await generateSigningKey();
      let keys: unknown[];
      if (change === 'small') {
        const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
          format: 'jwk',
        });
        keys = [{ ...small, kid: 'small' }];
      } else if (change === 'duplicate') {
        keys = [key, { ...(await generateSigningKey()), kid: key.kid }];
      } else {
        keys = [{ ...key, ...change }];
      }
      const path = join(dir, `unusable-${label.replace(/\W+/g, '-')}.json`);
      writeFileSync(path, JSON.stringify({ keys }));
      const error = await loadSigningKeys(path).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DevProviderConfigError);
      expect((error as DevProviderConfigError).index).toBe(index);
      expect((error as DevProviderConfigError).field).toBe(field);
      expect((error as Error).message).toContain(`keys file ${path}, entry ${index + 1}`);
      expect((error as Error).message).toMatch(problem);
    },
  );

  it('refuses a keys file that is not JSON', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{"keys": [');
    await expect(loadSigningKeys(path)).rejects.toThrow(`keys file ${path} is not valid JSON`);
  });
});

describe('a keys file', () => {
  it('keeps tokens verifiable across a restart', async () => {
    const keysFile = join(dir, 'restart.json');
    const before = await startDevProvider({ port: 0, quiet: true, keysFile });
    const { code, verifier } = await signIn(before.issuer, { username: 'alice' });
    const tokens = await exchangeCode(before.issuer, { code, verifier });
    await before.stop();

    const after = await startDevProvider({ port: 0, quiet: true, keysFile });
    try {
      const jwks = (await (await fetch(`${after.issuer}/jwks`)).json()) as Parameters<
        typeof createLocalJWKSet
      >[0];
      const keySet = createLocalJWKSet(jwks);
      const id = await jwtVerify(tokens.id_token, keySet, { issuer: before.issuer });
      const access = await jwtVerify(tokens.access_token, keySet, { audience: after.apiAudience });
      expect(id.payload.sub).toBe('alice');
      expect(access.payload.sub).toBe('alice');
    } finally {
      await after.stop();
    }
  });
});
