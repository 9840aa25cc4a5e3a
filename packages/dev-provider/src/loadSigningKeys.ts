import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { readJsonFile } from './readJsonFile.js';

/** A JSON Web Key Set holding the provider's private signing keys. */
export interface SigningKeys {
  keys: JWK[];
}

const kind = 'keys file';

/**
 * The provider's signing keys: read from `keysFile` when it exists, generated (and written there,
 * so the next start reuses them) when it does not, or generated for this run only without a file.
 */
export async function loadSigningKeys(keysFile?: string): Promise<SigningKeys> {
  if (keysFile === undefined) return { keys: [await generateSigningKey()] };
  const source = resolve(keysFile);
  if (!existsSync(source)) {
    const keys = { keys: [await generateSigningKey()] };
    try {
      await mkdir(dirname(source), { recursive: true });
      await writeFile(source, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
    } catch (error) {
      throw new DevProviderConfigError(
        { kind, source },
        `cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}). Choose a writable path.`,
      );
    }
    return keys;
  }
  return parseSigningKeys(await readJsonFile(source, kind), source);
}

/** Generates an RS256 private key as a JWK with a thumbprint `kid`. */
export async function generateSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
}

function parseSigningKeys(value: unknown, source: string): SigningKeys {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new DevProviderConfigError(
      { kind, source, field: 'keys' },
      'must be a JSON object {"keys": [...]} with at least one private RSA JWK. Delete the file to have a new key generated.',
    );
  }
  keys.forEach((key: unknown, index) => {
    const jwk = (key ?? {}) as Record<string, unknown>;
    const location = {
      kind,
      source,
      index,
      ...(typeof jwk.kid === 'string' ? { entry: jwk.kid } : {}),
    };
    const fail = (field: string | undefined, problem: string): never => {
      throw new DevProviderConfigError({ ...location, ...(field ? { field } : {}) }, problem);
    };
    if (jwk.kty !== 'RSA') fail('kty', 'must be "RSA" (the provider signs with RS256).');
    for (const field of ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi']) {
      if (typeof jwk[field] !== 'string') {
        fail(field, 'is missing: each key must be a complete private RSA JWK.');
      }
    }
    // Every key must sign RS256: oidc-provider would start with one that cannot and then fail
    // each token request, or throw a bare Error at startup.
    if (jwk.kid !== undefined) {
      if (typeof jwk.kid !== 'string' || jwk.kid === '') fail('kid', 'must be a non-empty string.');
      const first = keys.findIndex((other) => (other as { kid?: unknown } | null)?.kid === jwk.kid);
      if (first !== index) {
        fail('kid', `"${jwk.kid}" is already used by entry ${first + 1}; each kid must be unique.`);
      }
    }
    if (jwk.use !== undefined && jwk.use !== 'sig') {
      fail('use', 'must be "sig" or left out: the provider signs tokens with these keys.');
    }
    if (jwk.alg !== undefined && jwk.alg !== 'RS256') {
      fail('alg', 'must be "RS256" or left out: the provider signs tokens with RS256.');
    }
    if (
      jwk.key_ops !== undefined &&
      !(Array.isArray(jwk.key_ops) && (jwk.key_ops as unknown[]).includes('sign'))
    ) {
      fail('key_ops', 'must include "sign" or be left out.');
    }
    let bits: number | undefined;
    try {
      bits = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' }).asymmetricKeyDetails
        ?.modulusLength;
    } catch (error) {
      fail(undefined, `is not a usable RSA private key (${(error as Error).message}).`);
    }
    if (bits !== undefined && bits < 2048) {
      fail(
        'n',
        `is a ${bits}-bit modulus; RS256 needs 2048 bits or more. Delete the file to have a new key generated.`,
      );
    }
  });
  return { keys: keys as JWK[] };
}
