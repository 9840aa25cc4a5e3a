import { expect, test, vi } from 'vitest';

// The main entry and the /react-router entry each bundle a copy of this module.
test('two copies of the module share the attempt when there is no sessionStorage', async () => {
  vi.stubGlobal('sessionStorage', undefined);
  vi.resetModules();
  const main = await import('./guardAttempts');
  vi.resetModules();
  const router = await import('./guardAttempts');
  expect(router).not.toBe(main);

  router.writeGuardAttempt({ returnTo: '/admin', silent: false });
  expect(main.readGuardAttempt('/admin')).toMatchObject({ returnTo: '/admin', silent: false });
  main.writeGuardAttempt(null);
  expect(router.readGuardAttempt('/admin')).toBeNull();
});
