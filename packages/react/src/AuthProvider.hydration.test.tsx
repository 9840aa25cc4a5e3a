import { act } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, test, vi } from 'vitest';
import { createHookHarness } from '../test/support/hookHarness';
import { AuthProvider } from './AuthProvider';
import type { AuthContextValue } from './authContext';
import { Authorized } from './components/Authorized';
import { IdleWarning } from './components/IdleWarning';
import { RequireAuth } from './components/RequireAuth';
import { SignInButton } from './components/SignInButton';
import { SignedIn } from './components/SignedIn';
import { SignedOut } from './components/SignedOut';
import { useIdle } from './hooks/useIdle';
import { useUser } from './hooks/useUser';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

function Name() {
  return <>{useUser()?.name ?? 'nobody'}</>;
}

function page(client: AuthContextValue) {
  return (
    <StrictMode>
      <AuthProvider client={client}>
        <p>
          <SignedIn>in</SignedIn>
          <SignedOut>out</SignedOut> <Name />
        </p>
      </AuthProvider>
    </StrictMode>
  );
}

// The client shared with route loaders may know the session before React hydrates (a loader or the
// app started it): hydration must still match the server's HTML, rendered in `loading`.
test('a client that knows the session before hydration hydrates the server HTML, then shows it', async () => {
  const client = await hooks.signedInClient();
  expect(client.getSnapshot().status).toBe('authenticated');
  const container = document.createElement('div');
  // The server's client is never started.
  container.innerHTML = renderToString(page(hooks.harness.createClient()));
  expect(container.textContent).toBe(' nobody');

  const recoverable: unknown[] = [];
  const root = await act(async () =>
    hydrateRoot(container, page(client), {
      onRecoverableError: (error) => recoverable.push(error),
    }),
  );
  expect(recoverable).toEqual([]);
  expect(container.textContent).toBe('in Alice Liddell');
  act(() => root.unmount());
});

function IdleStatus() {
  return <p>{useIdle().status}</p>;
}

function idlePage(client: AuthContextValue) {
  return (
    <StrictMode>
      <AuthProvider client={client}>
        <IdleStatus />
        <IdleWarning />
      </AuthProvider>
    </StrictMode>
  );
}

// As above, with idle sign-out: a client that shows the warning already (another tab's, or the
// page's own clock) must hydrate the server's HTML, where nobody is timed.
test("a client that shows idle sign-out's warning before hydration hydrates the server HTML, then shows it", async () => {
  // The warning begins 1 ms after the last input, a minute before the end.
  const idle = { timeout: 60_000, warning: 59_999 };
  const client = await hooks.signedInClient({}, { idle });
  await vi.waitFor(() => expect(client.idle.getSnapshot().status).toBe('warning'), {
    timeout: 5_000,
  });
  const container = document.createElement('div');
  container.innerHTML = renderToString(idlePage(hooks.harness.createClient({ config: { idle } })));
  expect(container.innerHTML).toBe('<p>active</p>');

  const recoverable: unknown[] = [];
  const root = await act(async () =>
    hydrateRoot(container, idlePage(client), {
      onRecoverableError: (error) => recoverable.push(error),
    }),
  );
  expect(recoverable).toEqual([]);
  expect(container.querySelector('p')?.textContent).toBe('warning');
  expect(container.querySelector('[role="alertdialog"]')).not.toBeNull();
  act(() => root.unmount());
});

function guardedPage(client: AuthContextValue) {
  return (
    <StrictMode>
      <AuthProvider client={client}>
        <SignInButton />
        <Authorized roles={['user']} fallback="no access">
          user link
        </Authorized>
        <RequireAuth>private</RequireAuth>
      </AuthProvider>
    </StrictMode>
  );
}

// The guard, the button and the role check render `loading` on the server: a client that knows
// the session (either way) before hydration must hydrate that HTML, then show what it knows.
test.each([
  ['signed in', () => hooks.signedInClient(), 'Sign inuser linkprivate', 'authenticated'],
  // The guard starts sign-in: pending for the role check and the guard alike.
  ['signed out', () => hooks.signedOutClient(), 'Sign inChecking your session…', 'signing-in'],
])(
  'a %s client hydrates the guard, the button and the role check, then shows them',
  async (_, make, shown, status) => {
    const client = await make();
    const container = document.createElement('div');
    container.innerHTML = renderToString(guardedPage(hooks.harness.createClient()));
    expect(container.textContent).toBe('Sign inChecking your session…');

    const recoverable: unknown[] = [];
    const logged = vi.spyOn(console, 'error');
    const root = await act(async () =>
      hydrateRoot(container, guardedPage(client), {
        onRecoverableError: (error) => recoverable.push(error),
      }),
    );
    expect(recoverable).toEqual([]);
    expect(logged).not.toHaveBeenCalled();
    expect(container.textContent).toBe(shown);
    expect(client.getSnapshot().status).toBe(status);
    act(() => root.unmount());
  },
);
