import { expect, test, vi } from 'vitest';
import { reportRejection } from './reportRejection';

test('a rejection settles: logged in development, silent in production', async () => {
  const failure = new Error('The sign-in service is down.');
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await expect(reportRejection(Promise.reject(failure))).resolves.toBeUndefined();
  expect(logged.mock.calls).toEqual([[failure]]);
  vi.stubEnv('NODE_ENV', 'production');
  await expect(reportRejection(Promise.reject(failure))).resolves.toBeUndefined();
  expect(logged.mock.calls).toHaveLength(1);
  await expect(reportRejection(Promise.resolve('done'))).resolves.toBeUndefined();
});
