// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { expect, test, vi } from 'vitest';
import {
  AuthProvider,
  Authorized,
  IdleWarning,
  RequireAuth,
  SignedIn,
  SignedOut,
  SignInButton,
  useAuth,
  useSessionExpiry,
  useUser,
} from './index';

function Page() {
  const { status, isLoading } = useAuth();
  const user = useUser();
  const { secondsLeft } = useSessionExpiry();
  return (
    <p>
      {status}/{String(isLoading)}/{user === null ? 'nobody' : 'somebody'}/{String(secondsLeft)}
    </p>
  );
}

const config = {
  authority: 'https://login.example.com',
  client_id: 'web',
  redirect_uri: 'https://app.example.com/callback',
};

test('renders on the server with no window, document or storage, in the loading state', () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
  expect(typeof sessionStorage).toBe('undefined');
  const html = renderToString(
    <AuthProvider config={config}>
      <Page />
    </AuthProvider>,
  );
  expect(html).toBe(
    '<p>loading<!-- -->/<!-- -->true<!-- -->/<!-- -->nobody<!-- -->/<!-- -->null</p>',
  );
});

test('the components render on the server too, with idle sign-out on: no timer, request or channel started', () => {
  const timers = [vi.spyOn(globalThis, 'setTimeout'), vi.spyOn(globalThis, 'setInterval')];
  const requests = vi.spyOn(globalThis, 'fetch');
  const channels = vi.fn();
  vi.stubGlobal(
    'BroadcastChannel',
    class extends BroadcastChannel {
      constructor(name: string) {
        super(name);
        channels(name);
      }
    },
  );
  const html = renderToString(
    <AuthProvider config={{ ...config, idle: { timeout: 15 * 60_000 } }}>
      <IdleWarning />
      <SignedIn>in</SignedIn>
      <SignedOut>out</SignedOut>
      <SignInButton />
      <Authorized roles={['admin']} fallback="not an admin">
        admin
      </Authorized>
      <RequireAuth>private</RequireAuth>
    </AuthProvider>,
  );
  // Loading: no warning, neither template, the button idle, the guard's pending view.
  expect(html).toBe(
    '<button type="button">Sign in</button><p role="status" aria-live="polite">Checking your session…</p>',
  );
  for (const timer of timers) expect(timer).not.toHaveBeenCalled();
  expect(requests).not.toHaveBeenCalled();
  expect(channels).not.toHaveBeenCalled();
});
