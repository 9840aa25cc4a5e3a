import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the local provider, app and port', () => {
    expect(loadConfig({})).toEqual({
      issuer: 'http://localhost:4000',
      audience: 'http://localhost:4001',
      appOrigins: ['http://localhost:5173'],
      publicOrigin: undefined,
      jwksUri: undefined,
      port: 4001,
      portVariable: 'REFERENCE_API_PORT',
    });
  });

  it('reads every variable, keeping the issuer exactly as given', () => {
    expect(
      loadConfig({
        OIDC_ISSUER: 'https://tenant.eu.auth0.com/',
        API_AUDIENCE: 'api://reference',
        APP_ORIGIN: 'https://app.example.com',
        API_PUBLIC_ORIGIN: 'https://api.example.com',
        JWKS_URI: 'https://tenant.eu.auth0.com/.well-known/jwks.json',
        PORT: '8080',
      }),
    ).toEqual({
      issuer: 'https://tenant.eu.auth0.com/',
      audience: 'api://reference',
      appOrigins: ['https://app.example.com'],
      publicOrigin: 'https://api.example.com',
      jwksUri: 'https://tenant.eu.auth0.com/.well-known/jwks.json',
      port: 8080,
      portVariable: 'PORT',
    });
  });

  it('prefers REFERENCE_API_PORT to PORT, and treats blank values as unset', () => {
    expect(loadConfig({ PORT: '3000', REFERENCE_API_PORT: '4101' })).toMatchObject({
      port: 4101,
      portVariable: 'REFERENCE_API_PORT',
    });
    expect(loadConfig({ PORT: ' ', OIDC_ISSUER: '' })).toMatchObject({
      port: 4001,
      issuer: 'http://localhost:4000',
    });
  });

  it('reads several app origins from APP_ORIGIN, separated by commas', () => {
    expect(
      loadConfig({ APP_ORIGIN: 'https://app.example.com, https://preview.example.com' }),
    ).toMatchObject({ appOrigins: ['https://app.example.com', 'https://preview.example.com'] });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a port number (0-65535), got "abc"'],
    [{ REFERENCE_API_PORT: '70000' }, 'REFERENCE_API_PORT must be a port number'],
    [{ REFERENCE_API_PORT: '-1' }, 'REFERENCE_API_PORT must be a port number'],
    [{ OIDC_ISSUER: 'localhost:4000' }, 'OIDC_ISSUER must be an http(s) URL'],
    [{ OIDC_ISSUER: 'not a url' }, 'OIDC_ISSUER must be an http(s) URL'],
    [{ JWKS_URI: 'ftp://x/jwks' }, 'JWKS_URI must be an http(s) URL'],
    [{ APP_ORIGIN: 'http://localhost:5173/' }, 'APP_ORIGIN must be an origin such as'],
    [{ APP_ORIGIN: 'http://localhost:5173/app' }, 'APP_ORIGIN must be an origin such as'],
    [
      { APP_ORIGIN: 'https://app.example.com, https://preview.example.com/' },
      'APP_ORIGIN must be an origin such as https://preview.example.com, got "https://preview.example.com/"',
    ],
    [
      { APP_ORIGIN: 'https://app.example.com,' },
      'APP_ORIGIN must be one origin or several separated by commas, got "https://app.example.com,"',
    ],
    [{ API_PUBLIC_ORIGIN: 'api.example.com' }, 'API_PUBLIC_ORIGIN must be an http(s) URL'],
    [{ API_PUBLIC_ORIGIN: 'https://api.example.com/v1' }, 'API_PUBLIC_ORIGIN must be an origin'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('the environment under npm run dev', () => {
  it('reaches the API: turbo passes through every variable loadConfig reads', () => {
    const read = new Set<string>();
    loadConfig(new Proxy({}, { get: (_, name) => void read.add(String(name)) }));
    const turbo = JSON.parse(readFileSync(new URL('../../../turbo.json', import.meta.url), 'utf8'));
    expect(read.size).toBeGreaterThan(0);
    // Not PORT: a shell's general PORT would move the API alone, away from where the app calls it.
    read.delete('PORT');
    expect(turbo.tasks['@oidc-kit/reference-api#dev']?.passThroughEnv).toEqual(
      expect.arrayContaining([...read]),
    );
    expect(turbo.tasks['@oidc-kit/reference-api#dev']?.passThroughEnv).not.toContain('PORT');
  });
});
