import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { loadClientsFile, parseClients, referenceAppClient } from './loadClientsFile.js';
import { tempDir } from './test-support/tempDir.js';

const dir = tempDir('dev-provider-clients');

const list = { kind: 'clients file', source: '/tmp/clients.json' };

describe('the reference app client', () => {
  it('has the redirect URIs of the reference app', () => {
    expect(referenceAppClient).toEqual({
      client_id: 'reference-app',
      client_name: 'oidc-kit reference app',
      redirect_uris: ['http://localhost:5173/callback'],
      post_logout_redirect_uris: ['http://localhost:5173/signed-out', 'http://localhost:5173/'],
    });
  });
});

describe('parseClients', () => {
  it('keeps the given fields and nothing else', () => {
    expect(
      parseClients(
        [
          { client_id: 'a', redirect_uris: ['http://localhost:3000/cb'] },
          {
            client_id: 'b',
            client_name: 'B',
            redirect_uris: ['https://b.test/cb'],
            post_logout_redirect_uris: ['https://b.test/'],
            access_tokens_for: 'userinfo',
            dpop_bound_access_tokens: true,
          },
        ],
        list,
      ),
    ).toEqual([
      { client_id: 'a', redirect_uris: ['http://localhost:3000/cb'] },
      {
        client_id: 'b',
        client_name: 'B',
        redirect_uris: ['https://b.test/cb'],
        post_logout_redirect_uris: ['https://b.test/'],
        access_tokens_for: 'userinfo',
        dpop_bound_access_tokens: true,
      },
    ]);
  });

  it.each([
    ['a missing redirect_uris', [{ client_id: 'a' }], 'redirect_uris', /is missing/],
    [
      'empty redirect_uris',
      [{ client_id: 'a', redirect_uris: [] }],
      'redirect_uris',
      /non-empty array/,
    ],
    [
      'a relative redirect URI',
      [{ client_id: 'a', redirect_uris: ['/cb'] }],
      'redirect_uris',
      /not an absolute URL/,
    ],
    [
      'a redirect URI with a fragment',
      [{ client_id: 'a', redirect_uris: ['http://x.test/cb#f'] }],
      'redirect_uris',
      /fragment/,
    ],
    [
      'a custom scheme',
      [{ client_id: 'a', redirect_uris: ['javascript:alert(1)'] }],
      'redirect_uris',
      /http: or https:/,
    ],
    [
      'a bad post-logout URI',
      [
        {
          client_id: 'a',
          redirect_uris: ['http://x.test/cb'],
          post_logout_redirect_uris: ['nope'],
        },
      ],
      'post_logout_redirect_uris',
      /absolute URL/,
    ],
    [
      'the reference app id',
      [{ client_id: 'reference-app', redirect_uris: ['http://x.test/cb'] }],
      'client_id',
      /built-in reference app/,
    ],
    [
      // oidc-provider accepted it at startup, then refused every sign-in (invalid_client_metadata).
      'a client_id with a character outside printable ASCII',
      [{ client_id: 'café', redirect_uris: ['http://x.test/cb'] }],
      'client_id',
      /printable ASCII/,
    ],
    [
      'a secret',
      [{ client_id: 'a', redirect_uris: ['http://x.test/cb'], client_secret: 's' }],
      'client_secret',
      /not a known field/,
    ],
    [
      'a bad access_tokens_for',
      [{ client_id: 'a', redirect_uris: ['http://x.test/cb'], access_tokens_for: 'jwt' }],
      'access_tokens_for',
      /"api" or "userinfo"/,
    ],
    [
      'a dpop_bound_access_tokens that is no boolean',
      [{ client_id: 'a', redirect_uris: ['http://x.test/cb'], dpop_bound_access_tokens: 'yes' }],
      'dpop_bound_access_tokens',
      /true or false/,
    ],
  ])('refuses %s, naming the entry and field', (_label, value, field, problem) => {
    let error: unknown;
    try {
      parseClients(value, list);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DevProviderConfigError);
    expect((error as DevProviderConfigError).field).toBe(field);
    expect((error as Error).message).toMatch(problem);
    expect((error as Error).message).toMatch(
      /^oidc-kit-dev-provider: clients file \/tmp\/clients\.json, entry 1 \("[^"]+"\), field/,
    );
  });

  it('refuses a duplicate client_id', () => {
    expect(() =>
      parseClients(
        [
          { client_id: 'a', redirect_uris: ['http://x.test/cb'] },
          { client_id: 'a', redirect_uris: ['http://y.test/cb'] },
        ],
        list,
      ),
    ).toThrow(
      'clients file /tmp/clients.json, entry 2 ("a"), field "client_id": "a" is already used',
    );
  });
});

describe('loadClientsFile', () => {
  it('reads a clients file', async () => {
    const path = join(dir, 'clients.json');
    writeFileSync(
      path,
      JSON.stringify([{ client_id: 'e2e', redirect_uris: ['http://localhost:3000/cb'] }]),
    );
    expect(await loadClientsFile(path)).toEqual([
      { client_id: 'e2e', redirect_uris: ['http://localhost:3000/cb'] },
    ]);
  });
});
