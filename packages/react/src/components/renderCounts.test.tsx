import { act, render, screen, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import type { ReactNode } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { createHookHarness } from '../../test/support/hookHarness';
import { AuthProvider } from '../AuthProvider';
import { Authorized } from './Authorized';
import { RequireAuth } from './RequireAuth';
import { SignedIn } from './SignedIn';
import { SignedOut } from './SignedOut';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

// One slice, one subscription: a renewal that changes nothing a component shows re-renders none.
test('the guard and the templates do not re-render when the tokens are renewed', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const client = await hooks.signedInClient();
  const commits: Record<string, number> = {};
  const counted = (id: string, children: ReactNode) => (
    <Profiler id={id} onRender={() => (commits[id] = (commits[id] ?? 0) + 1)}>
      {children}
    </Profiler>
  );
  render(
    <AuthProvider client={client}>
      {counted(
        'RequireAuth',
        <RequireAuth roles={['user']}>
          <p>Report</p>
        </RequireAuth>,
      )}
      {counted(
        'RequireAuth with scopes and when',
        <RequireAuth scopes={['openid']} when={(user) => user.profile.sub === 'alice'}>
          <p>Orders</p>
        </RequireAuth>,
      )}
      {counted(
        'Authorized',
        <Authorized roles={['user']}>
          <p>User link</p>
        </Authorized>,
      )}
      {counted(
        'Authorized, denied',
        <Authorized roles={['admin']} fallback={<p>Admins only</p>}>
          <p>Admin link</p>
        </Authorized>,
      )}
      {counted(
        'SignedIn',
        <SignedIn>
          <p>Hello</p>
        </SignedIn>,
      )}
      {counted(
        'SignedOut',
        <SignedOut>
          <p>Sign in</p>
        </SignedOut>,
      )}
    </AuthProvider>,
  );
  await waitFor(() => expect(screen.getByText('Report')).toBeDefined());
  expect(screen.getByText('Orders')).toBeDefined();
  expect(screen.getByText('Admins only')).toBeDefined();
  const before = { ...commits };

  for (let round = 0; round < 3; round += 1) {
    const previous = client.getSnapshot().user;
    vi.setSystemTime(Date.now() + 11_000); // past the 10 s between token requests
    await act(() => client.renew());
    expect(client.getSnapshot().user).not.toBe(previous);
  }
  expect(commits).toEqual(before);
});
