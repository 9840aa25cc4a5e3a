import { describe, expect, test } from 'vitest';
import { discoveryError } from './discoveryError';

const url = 'https://login.example.com/realms/typo/.well-known/openid-configuration';

describe('discoveryError', () => {
  test('a JSON error status from the discovery URL is a wrong authority, naming URL and status', () => {
    const error = discoveryError(new Error('Not Found (404): {"detail":"no realm"}'), url);
    expect(error?.code).toBe('config_invalid');
    expect(error?.field).toBe('authority');
    expect(error?.message).toContain(url);
    expect(error?.message).toContain('HTTP 404');
  });

  test('an HTML page is a wrong authority, naming its type', () => {
    const error = discoveryError(
      new Error(`Invalid response Content-Type: text/html; charset=utf-8, from URL: ${url}`),
      url,
    );
    expect(error?.code).toBe('config_invalid');
    expect(error?.message).toContain('text/html; charset=utf-8, not JSON');
  });

  test('no answer is network, naming the URL and CORS', () => {
    const error = discoveryError(new TypeError('Failed to fetch'), url);
    expect(error?.code).toBe('network');
    expect(error?.message).toContain(url);
    expect(error?.message).toContain('CORS');
  });

  test('no answer on this machine asks whether the provider runs, naming the dev provider', () => {
    const local = 'http://localhost:4000/.well-known/openid-configuration';
    const error = discoveryError(new TypeError('Failed to fetch'), local);
    expect(error?.code).toBe('network');
    expect(error?.message).toContain(local);
    expect(error?.message).toContain('Is the provider running?');
    expect(error?.message).toContain('npx oidc-kit-dev-provider');
    // A hosted provider is not the dev provider: no such advice there.
    expect(discoveryError(new TypeError('Failed to fetch'), url)?.message).not.toContain(
      'oidc-kit-dev-provider',
    );
  });

  test('a server error or a timeout is left to the usual mapping', () => {
    expect(discoveryError(new Error('Service Unavailable (503): {}'), url)).toBeNull();
    expect(discoveryError(Object.assign(new Error('t'), { name: 'ErrorTimeout' }), url)).toBeNull();
  });
});
