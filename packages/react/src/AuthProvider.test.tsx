import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, useEffect } from 'react';
import { UserManager } from 'oidc-client-ts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  appOrigin,
  createHarness,
  landInPopup,
  newStorage,
  storedUsers,
  stubPopup,
} from '../test/support/harness';
import { unhandledRejectionsDuring } from '../test/support/unhandledRejections';
import type { Harness } from '../test/support/harness';
import { AuthProvider } from './AuthProvider';
import type { AuthProviderProps } from './AuthProvider';
import type { AuthContextValue } from './authContext';
import { RequireAuth } from './components/RequireAuth';
import { SignInButton } from './components/SignInButton';
import { useAuth } from './hooks/useAuth';
import { useAuthFetch } from './hooks/useAuthFetch';
import { createMockAuthClient, createTestUser } from './testing';

let harness: Harness;
afterEach(() => harness?.dispose());

function Status({ label = 'status' }: { label?: string }) {
  const { status, user, error } = useAuth();
  return (
    <p aria-label={label}>
      {status}
      {user ? ` as ${user.profile.name}` : ''}
      {error ? ` (${error.code})` : ''}
    </p>
  );
}

/** The app a re-render test renders again and again: `client` under its provider. */
function statusUnder(client: AuthContextValue) {
  return (
    <AuthProvider client={client}>
      <Status />
    </AuthProvider>
  );
}

/** A configuration that fails its checks (no client id). */
const withoutClientId = {
  authority: 'https://login.example.com',
  client_id: '',
  redirect_uri: `${appOrigin}/callback`,
};

describe('AuthProvider', () => {
  test('processes the callback once under StrictMode with two providers mounted', async () => {
    harness = createHarness();
    await harness.landOnCallback({ returnTo: '/orders' });
    const config = {
      authority: harness.provider.issuer,
      client_id: 'app',
      redirect_uri: `${appOrigin}/callback`,
    };
    const navigate = vi.fn();
    const { unmount } = render(
      <>
        <AuthProvider config={config} navigate={navigate}>
          <Status label="first" />
        </AuthProvider>
        <AuthProvider config={config} navigate={navigate}>
          <Status label="second" />
        </AuthProvider>
      </>,
    );
    await waitFor(() =>
      expect(screen.getByLabelText('first').textContent).toBe('authenticated as Alice Liddell'),
    );
    await waitFor(() =>
      expect(screen.getByLabelText('second').textContent).toBe('authenticated as Alice Liddell'),
    );
    expect(harness.provider.count('token')).toBe(1);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/orders');
    expect(location.search).toBe('');
    unmount();
  });

  test('takes a ready client and starts it', async () => {
    harness = createHarness();
    const client = harness.createClient();
    render(
      <AuthProvider client={client}>
        <Status />
      </AuthProvider>,
    );
    await waitFor(() =>
      expect(screen.getByLabelText('status').textContent).toBe('unauthenticated'),
    );
  });

  test('starts any engine on mount and stops it on unmount, StrictMode remount included, without timers', () => {
    const client = createMockAuthClient({ state: 'unauthenticated' });
    const { unmount } = render(
      <AuthProvider client={client}>
        <Status />
      </AuthProvider>,
    );
    // StrictMode mounts, unmounts and mounts again: two starts, one stop, one start unmatched.
    expect(client.start.calls).toHaveLength(2);
    expect(client.stop.calls).toHaveLength(1);
    unmount();
    // At once, with no timer to wait for.
    expect(client.stop.calls).toHaveLength(2);
  });

  test('follows a client prop that changes: the new one is read and started, the old one stopped', () => {
    const first = createMockAuthClient({ state: 'unauthenticated' });
    const second = createMockAuthClient({ user: createTestUser({ name: 'Bob Stone' }) });
    const { rerender } = render(
      <AuthProvider client={first}>
        <Status />
      </AuthProvider>,
    );
    rerender(
      <AuthProvider client={second}>
        <Status />
      </AuthProvider>,
    );
    expect(screen.getByLabelText('status').textContent).toBe('authenticated as Bob Stone');
    expect(first.stop.calls).toHaveLength(first.start.calls.length);
    expect(second.start.calls.length - second.stop.calls.length).toBe(1);
  });

  test('stops the client it created when it unmounts, and not on the StrictMode remount', async () => {
    harness = createHarness();
    const config = {
      authority: harness.provider.issuer,
      client_id: 'app',
      redirect_uri: `${appOrigin}/callback`,
    };
    const { AuthClient } = await import('./core/AuthClient');
    const stop = vi.spyOn(AuthClient.prototype, 'stop');
    const { unmount } = render(
      <AuthProvider config={config}>
        <Status />
      </AuthProvider>,
    );
    await waitFor(() =>
      expect(screen.getByLabelText('status').textContent).toBe('unauthenticated'),
    );
    const client = stop.mock.contexts[0] as InstanceType<typeof AuthClient>;
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(stop).toHaveBeenCalledTimes(1);
    unmount();
    expect(stop).toHaveBeenCalledTimes(2);
    expect(stop.mock.contexts[1]).toBe(client);
  });

  test('unmounted during a popup sign-in: the sign-in still ends, quietly, and the next provider has the session', async () => {
    harness = createHarness();
    // The tab's storage, which the provider mounted next reads.
    const storage = newStorage();
    const { authorizeUrl } = stubPopup();
    const logged = vi.spyOn(console, 'error');
    const rejections = await unhandledRejectionsDuring(async () => {
      const { unmount } = render(
        <AuthProvider client={harness.createClient({ storage })}>
          <SignInButton popup />
          <Status />
        </AuthProvider>,
      );
      await waitFor(() =>
        expect(screen.getByLabelText('status').textContent).toBe('unauthenticated'),
      );
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      const authorize = await authorizeUrl();
      unmount();
      const { deliver } = landInPopup(harness.provider.authorize(authorize));
      await harness.createClient({ storage: newStorage() }).start();
      deliver();
      await vi.waitFor(() => expect(storedUsers(storage)).toHaveLength(1));
    });
    expect(rejections).toEqual([]);
    expect(logged).not.toHaveBeenCalled();
    render(statusUnder(harness.createClient({ storage })));
    await waitFor(() =>
      expect(screen.getByLabelText('status').textContent).toBe('authenticated as Alice Liddell'),
    );
  });

  test('a wrong configuration shows a development panel in place of the app, naming the field', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AuthProvider
        config={{
          authority: 'http://login.example.com',
          client_id: 'app',
          redirect_uri: `${appOrigin}/callback`,
        }}
      >
        <Status />
      </AuthProvider>,
    );
    const panel = screen.getByRole('alert', { name: /auth configuration is invalid/i });
    expect(panel.textContent).toMatch(/`authority` must use https:/);
    expect(panel.textContent).toContain('authority');
    expect(screen.getByRole('link', { name: /what to do/i }).getAttribute('href')).toMatch(
      /docs\/errors\.md#config_invalid$/,
    );
    expect(screen.queryByLabelText('status')).toBeNull();
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ code: 'config_invalid' }));
  });

  // A config read at run time (a global, a fetched file) may be missing on the first render; in
  // JavaScript, nothing stops that. It was a TypeError from inside the client.
  test.each([
    ['no config', {}],
    ['config undefined', { config: undefined }],
    ['config null', { config: null }],
    ['client null', { client: null }],
  ])('%s shows the development panel, naming config (config_invalid)', (_, props) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AuthProvider {...(props as AuthProviderProps)}>
        <Status />
      </AuthProvider>,
    );
    const panel = screen.getByRole('alert', { name: /auth configuration is invalid/i });
    expect(panel.textContent).toMatch(/`config` must be an object with authority, client_id/);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ code: 'config_invalid' }));
  });

  // A client created in an effect, as production already did: a client given is followed.
  test('a client null at first, then given: the provider follows it, the panel goes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = (client: AuthContextValue | null) => (
      <AuthProvider {...({ client } as AuthProviderProps)}>
        <Status />
      </AuthProvider>
    );
    const { rerender } = render(app(null));
    expect(screen.getByRole('alert', { name: /auth configuration is invalid/i })).toBeDefined();
    rerender(app(createMockAuthClient({ state: 'unauthenticated' })));
    expect(screen.queryByRole('alert', { name: /auth configuration is invalid/i })).toBeNull();
    expect(screen.getByLabelText('status').textContent).toBe('unauthenticated');
  });

  test('a config missing when it mounts and given later (loaded at run time) warns that it is ignored, and what to do', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const app = (config?: AuthProviderProps['config']) => (
      <AuthProvider {...({ config } as AuthProviderProps)}>
        <Status />
      </AuthProvider>
    );
    const { rerender } = render(app());
    rerender(app());
    expect(warn).not.toHaveBeenCalled();
    rerender(
      app({
        authority: 'https://login.example.com',
        client_id: 'app',
        redirect_uri: `${appOrigin}/callback`,
      }),
    );
    expect(screen.getByRole('alert', { name: /auth configuration is invalid/i })).toBeDefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^oidc-kit: <AuthProvider> mounted without a config and got one later.*render the provider once the config is there/,
    );
  });

  test('no config is the error state in production, as a wrong one', () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AuthProvider {...({} as AuthProviderProps)}>
        <Status />
      </AuthProvider>,
    );
    expect(screen.getByLabelText('status').textContent).toBe('error (config_invalid)');
  });

  test('a wrong configuration shows as the error state in production', () => {
    vi.stubEnv('NODE_ENV', 'production');
    render(
      <AuthProvider config={withoutClientId}>
        <Status />
      </AuthProvider>,
    );
    expect(screen.getByLabelText('status').textContent).toBe('error (config_invalid)');
  });

  test('in production, a wrong configuration is logged to the console once (a deploy with a wrong setting leaves a trace)', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <StrictMode>
        <AuthProvider config={withoutClientId}>
          <Status />
        </AuthProvider>
      </StrictMode>,
    );
    expect(screen.getByLabelText('status').textContent).toBe('error (config_invalid)');
    const configErrors = logged.mock.calls.filter(
      ([error]) => (error as { code?: unknown } | null)?.code === 'config_invalid',
    );
    expect(configErrors.length).toBeGreaterThanOrEqual(1);
    expect(configErrors[0]?.[0]).toMatchObject({ field: 'client_id' });
  });

  // NODE_ENV switches oidc-kit's own checks (the development panel, its messages), not React's
  // build: React here is always its development build, whose StrictMode renders twice.
  test.each(['development', 'production'])(
    'with NODE_ENV %s, a wrong configuration is one line in the console a first render; StrictMode renders it twice',
    (build) => {
      vi.stubEnv('NODE_ENV', build);
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const configErrors = () =>
        logged.mock.calls.filter(
          ([error]) => (error as { code?: unknown } | null)?.code === 'config_invalid',
        );
      // React's production build renders once; as does its development build outside StrictMode.
      const { unmount } = render(
        <AuthProvider config={withoutClientId}>
          <Status />
        </AuthProvider>,
        { reactStrictMode: false },
      );
      expect(configErrors()).toHaveLength(1);
      expect(configErrors()[0]?.[0]).toMatchObject({ field: 'client_id' });
      unmount();
      // StrictMode runs the first render twice, the state's initializer included (docs/errors.md
      // says so): one line a render, not one per state change or re-render.
      const { rerender } = render(
        <AuthProvider config={withoutClientId}>
          <Status />
        </AuthProvider>,
      );
      rerender(
        <AuthProvider config={withoutClientId}>
          <Status />
        </AuthProvider>,
      );
      expect(configErrors()).toHaveLength(3);
    },
  );

  test('in production, actions on a wrong configuration settle as the state says, never reject', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    let actions: ReturnType<typeof useAuth> | undefined;
    function Grab() {
      const auth = useAuth();
      useEffect(() => {
        actions = auth;
      });
      return null;
    }
    render(
      <AuthProvider config={withoutClientId}>
        <Status />
        <Grab />
        <RequireAuth>
          <p>secret</p>
        </RequireAuth>
      </AuthProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await expect(actions!.signIn()).resolves.toBeUndefined();
    await expect(actions!.signOut()).resolves.toBeUndefined();
    // renew() returns a value the caller awaits, so it rejects, as the engine's does.
    await expect(actions!.renew()).rejects.toMatchObject({ code: 'config_invalid' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
    expect(screen.getByLabelText('status').textContent).toBe('error (config_invalid)');
  });

  test('a custom client whose start() rejects leaves no unhandled rejection; development logs it', async () => {
    const failure = new Error('The session service is down.');
    const client = { ...createMockAuthClient(), start: () => Promise.reject(failure) };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const leaked = await unhandledRejectionsDuring(async () => {
      render(
        <AuthProvider client={client}>
          <Status />
        </AuthProvider>,
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(leaked).toEqual([]);
    expect(logged).toHaveBeenCalledWith(failure);
  });

  test('warns in development when the config changes after mount, and says how to switch', () => {
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const config = (client_id: string) => ({
      authority: harness.provider.issuer,
      client_id,
      redirect_uri: `${appOrigin}/callback`,
      roles: () => [], // a new function every render is no change
    });
    const { rerender } = render(
      <AuthProvider config={config('app')}>
        <Status />
      </AuthProvider>,
    );
    rerender(
      <AuthProvider config={config('app')}>
        <Status />
      </AuthProvider>,
    );
    expect(warn).not.toHaveBeenCalled();
    rerender(
      <AuthProvider config={config('other')}>
        <Status />
      </AuthProvider>,
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/client_id/);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/key=/);
  });
  test('an inline config, a new object on every render, is one client started once: no restart, no loop, no warning', async () => {
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { AuthClient } = await import('./core/AuthClient');
    const start = vi.spyOn(AuthClient.prototype, 'start');
    const stop = vi.spyOn(AuthClient.prototype, 'stop');
    const app = () => (
      <AuthProvider
        config={{
          authority: harness.provider.issuer,
          client_id: 'app',
          redirect_uri: `${appOrigin}/callback`,
          idle: { timeout: 15 * 60_000 },
          roles: () => [],
        }}
      >
        <Status />
      </AuthProvider>
    );
    const { rerender } = render(app());
    rerender(app());
    await waitFor(() =>
      expect(screen.getByLabelText('status').textContent).toBe('unauthenticated'),
    );
    rerender(app());
    // StrictMode's start, stop, start, on one client.
    expect(new Set(start.mock.contexts).size).toBe(1);
    expect(start.mock.calls.length - stop.mock.calls.length).toBe(1);
    expect(start).toHaveBeenCalledTimes(2);
    expect(warn).not.toHaveBeenCalled();
  });

  test('warns in development when a re-render brings a new client with the same settings', async () => {
    // `<AuthProvider client={new AuthClient(config)}>` in a component that renders again: each
    // client restores the session anew (with storage 'memory', it is lost), with no message.
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { rerender } = render(statusUnder(harness.createClient()));
    await waitFor(() =>
      expect(screen.getByLabelText('status').textContent).toBe('unauthenticated'),
    );
    rerender(statusUnder(harness.createClient()));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^oidc-kit: <AuthProvider> got a new client with the same settings.*useState\(\(\) => new AuthClient\(config\)\)/,
    );
    rerender(statusUnder(harness.createClient()));
    expect(warn).toHaveBeenCalledTimes(1);
  });

  test('warns in development when nested in another provider with the same settings, which it would run twice', async () => {
    // Hooks below read the inner provider; the page runs two clients that each restore the
    // session, renew it and keep an idle clock, with nothing to say so.
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const config = {
      authority: harness.provider.issuer,
      client_id: 'app',
      redirect_uri: `${appOrigin}/callback`,
    };
    render(
      <AuthProvider config={config}>
        <AuthProvider config={{ ...config }}>
          <Status />
        </AuthProvider>
      </AuthProvider>,
    );
    await waitFor(() =>
      expect(screen.getByLabelText('status').textContent).toBe('unauthenticated'),
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^oidc-kit: an <AuthProvider> is nested in another with the same settings.*Keep one <AuthProvider> at the root/,
    );
  });

  test('nested with other settings (another client), the same client, around a mock, or in production: no warning', () => {
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const nested = (outer: AuthContextValue, inner: AuthContextValue) => (
      <AuthProvider client={outer}>
        <AuthProvider client={inner}>
          <Status />
        </AuthProvider>
      </AuthProvider>
    );
    const { unmount } = render(
      nested(harness.createClient(), harness.createClient({ config: { client_id: 'tenant-b' } })),
    );
    unmount();
    // The same client twice: one client, started twice (counted).
    const shared = harness.createClient();
    render(nested(shared, shared)).unmount();
    render(
      nested(
        createMockAuthClient({ state: 'unauthenticated' }),
        createMockAuthClient({ state: 'unauthenticated' }),
      ),
    ).unmount();
    vi.stubEnv('NODE_ENV', 'production');
    render(nested(harness.createClient(), harness.createClient())).unmount();
    expect(warn).not.toHaveBeenCalled();
  });

  test('a client with other settings (another tenant), a mock, or production: no warning', () => {
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { rerender } = render(statusUnder(harness.createClient()));
    rerender(statusUnder(harness.createClient({ config: { client_id: 'tenant-b' } })));
    rerender(statusUnder(createMockAuthClient({ state: 'unauthenticated' })));
    rerender(statusUnder(createMockAuthClient({ state: 'unauthenticated' })));
    vi.stubEnv('NODE_ENV', 'production');
    const { rerender: again } = render(statusUnder(harness.createClient()));
    again(statusUnder(harness.createClient()));
    expect(warn).not.toHaveBeenCalled();
  });

  test("a child that fetches on mount, before the provider has started its client, sends the stored session's token, with no warning", async () => {
    // Children's effects run before their parent's: the request leaves before AuthProvider's
    // start(). With the engine already loaded (a loader, another provider, a remount with another
    // client), it found a client never started: no token, and a warning that blamed the app.
    harness = createHarness();
    const { storage, token } = await harness.storedSession();
    const client = harness.createClient({ storage });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const sent: Array<string | null> = [];
    function Orders() {
      const authFetch = useAuthFetch();
      useEffect(() => {
        void authFetch(`${harness.provider.apiOrigin}/orders`).then(() => {
          const calls = harness.provider.requests.filter(({ endpoint }) => endpoint === 'api');
          sent.push(calls.at(-1)?.authorization ?? null);
        });
      }, [authFetch]);
      return null;
    }
    render(
      <StrictMode>
        <AuthProvider client={client}>
          <Orders />
        </AuthProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(sent.length).toBeGreaterThan(0));
    expect(sent[0]).toBe(`Bearer ${token}`);
    expect(warn).not.toHaveBeenCalled();
  });

  test('an inline config around a ready UserManager re-renders without a crash or a warning', () => {
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const userManager = new UserManager({
      authority: harness.provider.issuer,
      client_id: 'app',
      redirect_uri: `${appOrigin}/callback`,
    });
    const app = () => (
      <AuthProvider config={{ userManager, apiOrigins: [harness.provider.apiOrigin] }}>
        <Status />
      </AuthProvider>
    );
    const { rerender } = render(app());
    rerender(app());
    expect(screen.getByLabelText('status')).toBeDefined();
    expect(warn).not.toHaveBeenCalled();
  });
});
