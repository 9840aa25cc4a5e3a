import { act } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, test } from 'vitest';
import { createHookHarness } from '../test/support/hookHarness';
import { AuthProvider } from './AuthProvider';
import type { AuthContextValue } from './authContext';
import { SignedIn } from './components/SignedIn';
import { SignedOut } from './components/SignedOut';
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
