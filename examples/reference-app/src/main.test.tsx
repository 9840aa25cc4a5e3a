import { screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { isAuthError } from '@oidc-kit/react';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
  document.body.innerHTML = '';
});

test('a wrong auth setting in .env shows on the page, not a blank one', async () => {
  // auth.ts builds the client as it loads: an http authority off localhost is refused there.
  vi.stubEnv('VITE_OIDC_AUTHORITY', 'http://id.example.com');
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  document.body.innerHTML = '<div id="root"></div>';
  const { started } = await import('./main');
  await started;

  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('The sign-in settings are wrong');
  expect(alert.textContent).toMatch(/authority/);
  expect(alert.textContent).toContain('Setting: authority');
  expect(isAuthError(logged.mock.calls[0]?.[0], 'config_invalid')).toBe(true);
});
