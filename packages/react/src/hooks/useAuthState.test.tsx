import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { createHookHarness, wrapperFor } from '../../test/support/hookHarness';
import { AuthProvider } from '../AuthProvider';
import { useAuth } from './useAuth';
import { useAuthState } from './useAuthState';
import { useUser } from './useUser';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

test('components that read only the name or the profile do not re-render on renewal', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const client = await hooks.signedInClient();
  const renders = { name: 0, user: 0, auth: 0 };
  function Name() {
    renders.name += 1;
    return <p>{useAuthState((state) => state.user?.profile.name)}</p>;
  }
  function Profile() {
    renders.user += 1;
    return <p>{useUser()?.email as string}</p>;
  }
  function Everything() {
    renders.auth += 1;
    return <p>{useAuth().status}</p>;
  }
  render(
    <AuthProvider client={client}>
      {Array.from({ length: 20 }, (_, index) => (
        <Name key={`n${index}`} />
      ))}
      <Profile />
      <Everything />
    </AuthProvider>,
  );
  await waitFor(() => expect(screen.getAllByText('Alice Liddell')).toHaveLength(20));
  const before = { ...renders };
  for (let round = 0; round < 10; round += 1) {
    const previous = client.getSnapshot().user;
    // Past the 10 s the engine keeps between token requests.
    vi.setSystemTime(Date.now() + 11_000);
    await act(() => client.renew());
    expect(client.getSnapshot().user).not.toBe(previous);
  }
  expect(hooks.harness.provider.count('refresh')).toBe(10);
  expect(renders.name).toBe(before.name);
  expect(renders.user).toBe(before.user);
  // The control: a component reading everything re-renders on each renewal (twice in StrictMode).
  expect(renders.auth).toBe(before.auth + 20);
});

test('useAuthState follows a selector that changes between renders', async () => {
  const client = await hooks.signedInClient();
  const { result, rerender } = renderHook(
    ({ claim }: { claim: string }) => useAuthState((state) => state.user?.profile[claim]),
    { wrapper: wrapperFor(client), initialProps: { claim: 'name' } },
  );
  expect(result.current).toBe('Alice Liddell');
  rerender({ claim: 'email' });
  expect(result.current).toBe('alice@example.com');
});
