import { UserManager } from 'oidc-client-ts';
import { describe, expect, test } from 'vitest';
import { clientConfig } from './clientConfig';

const oidc = {
  authority: 'https://id.example.com',
  client_id: 'app',
  redirect_uri: `${globalThis.location.origin}/callback`,
};

describe('clientConfig', () => {
  test('validates an AuthConfig, with defaults, and names no UserManager', () => {
    const [config, given] = clientConfig({ ...oidc, storage: 'local' });
    expect(config.oidc).toMatchObject(oidc);
    expect(config.storage).toBe('local');
    expect(config.apiOrigins).toEqual([globalThis.location.origin]);
    expect(given).toBeUndefined();
  });

  test('reads the OIDC fields from a ready-made UserManager, with the options beside it', () => {
    const userManager = new UserManager({ ...oidc, scope: 'openid profile orders' });
    const [config, given] = clientConfig({ userManager, storage: 'memory' });
    expect(config.oidc).toMatchObject({ ...oidc, scope: 'openid profile orders' });
    expect(config.storage).toBe('memory');
    expect(given).toBe(userManager);
  });

  test('puts a UserManager’s settings through the same checks as a config', () => {
    const userManager = new UserManager({ ...oidc, client_secret: 'shh' });
    expect(() => clientConfig({ userManager })).toThrow(
      expect.objectContaining({ code: 'config_invalid', field: 'client_secret' }),
    );
  });

  // In JavaScript, or a config read at run time that is missing: what validateConfig says, in
  // every build, rather than a TypeError from reading `userManager` off it.
  test.each([undefined, null, 'https://id.example.com'])(
    'a config that is not an object (%s) is config_invalid',
    (config) => {
      expect(() => clientConfig(config as never)).toThrow(
        expect.objectContaining({ code: 'config_invalid' }),
      );
    },
  );
});
