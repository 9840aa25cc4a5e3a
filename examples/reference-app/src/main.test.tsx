import { screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { isAuthError } from '@oidc-kit/react';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
  document.body.innerHTML = '';
});

async function start(): Promise<HTMLElement> {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  document.body.innerHTML = '<div id="root"></div>';
  const { started } = await import('./main');
  await started;
  return screen.findByRole('alert');
}

test('a wrong auth setting in .env shows on the page, not a blank one', async () => {
  // auth.ts builds the client as it loads: an http authority off localhost is refused there.
  vi.stubEnv('VITE_OIDC_AUTHORITY', 'http://id.example.com');
  const alert = await start();
  expect(alert.textContent).toContain('A setting is wrong');
  expect(alert.textContent).toMatch(/authority/);
  expect(alert.textContent).toContain('Setting: authority, from VITE_OIDC_AUTHORITY');
  expect(isAuthError(vi.mocked(console.error).mock.calls[0]?.[0], 'config_invalid')).toBe(true);
});

test.each([
  ['VITE_API_URL', 'api.example.com', 'is "api.example.com", not an absolute URL'],
  ['VITE_OIDC_AUTHORITY', 'keycloak', 'is "keycloak", not an absolute URL'],
  ['VITE_OIDC_STORAGE', 'cookies', 'is "cookies"; use one of: session, local, memory.'],
  ['VITE_OIDC_IDLE_TIMEOUT', '15m', 'is "15m": use a whole number of milliseconds'],
  ['VITE_OIDC_IDLE_WARNING', '-1', 'is "-1": use a whole number of milliseconds'],
])('a malformed %s names the variable and the value', async (name, value, problem) => {
  vi.stubEnv(name, value);
  const alert = await start();
  expect(alert.textContent).toContain('A setting is wrong');
  expect(alert.textContent).toContain(`${name} ${problem}`);
  expect(alert.textContent).toContain(`Setting: ${name} (see .env.example)`);
});

test('an API address the auth client refuses (http off localhost) names VITE_API_URL', async () => {
  vi.stubEnv('VITE_API_URL', 'http://api.example.com');
  const alert = await start();
  expect(alert.textContent).toContain('A setting is wrong');
  expect(alert.textContent).toContain(
    'Setting: apiOrigins[0], from VITE_API_URL (see .env.example)',
  );
});

test('an idle warning without a timeout names both variables', async () => {
  vi.stubEnv('VITE_OIDC_IDLE_WARNING', '60000');
  const alert = await start();
  expect(alert.textContent).toContain(
    'VITE_OIDC_IDLE_WARNING is set without VITE_OIDC_IDLE_TIMEOUT',
  );
  expect(alert.textContent).toContain('Setting: VITE_OIDC_IDLE_WARNING (see .env.example)');
});
