import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { generateSigningKey, loadSigningKeys } from './loadSigningKeys.js';
import { startDevProvider } from './startDevProvider.js';
import { exchangeCode, signIn } from './test-support/oidcFlow.js';

const dir = mkdtempSync(join(tmpdir(), 'dev-provider-keys-'));

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
