import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness } from '../test/support/harness';
import type { Harness } from '../test/support/harness';
import { AuthProvider } from './AuthProvider';
import type { AuthContextValue } from './authContext';
import { IdleWarning } from './components/IdleWarning';
import { SignedIn } from './components/SignedIn';
import { useIdle } from './hooks/useIdle';
import { createMockAuthClient, createTestUser } from './testing';

let harness: Harness | undefined;
afterEach(() => {
  vi.useRealTimers();
  harness?.dispose();
  harness = undefined;
  vi.unstubAllEnvs();
});

function quietWarnings() {
  return vi.spyOn(console, 'warn').mockImplementation(() => undefined);
}

function app(client: AuthContextValue, children?: ReactNode) {
  return <AuthProvider client={client}>{children}</AuthProvider>;
}

function OwnWarning() {
  const { status } = useIdle();
  return status === 'warning' ? <p>Still there?</p> : null;
}

describe('idle sign-out with nothing to show its warning', () => {
  test('is said once in development when the warning is due, naming <IdleWarning /> and useIdle()', () => {
    const warn = quietWarnings();
    const auth = createMockAuthClient({ user: createTestUser() });
    render(app(auth, <p>The app, without a warning</p>));
    expect(warn).not.toHaveBeenCalled();
    vi.useFakeTimers();
    act(() => auth.setIdleWarning(30_000));
    act(() => vi.advanceTimersByTime(1_000));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^oidc-kit: .*nothing shows.*<IdleWarning \/>.*useIdle\(\)/,
    );
    act(() => auth.setIdleWarning(null));
    act(() => auth.setIdleWarning(20_000));
    act(() => vi.advanceTimersByTime(1_000));
    expect(warn).toHaveBeenCalledTimes(1);
  });

  test.each([
    ['<IdleWarning />', <IdleWarning key="warning" />],
    ['a warning of its own (useIdle)', <OwnWarning key="own" />],
  ])('with %s rendered: nothing said', (_, warning) => {
    const warn = quietWarnings();
    const auth = createMockAuthClient({ user: createTestUser() });
    vi.useFakeTimers();
    render(app(auth, warning));
    act(() => auth.setIdleWarning(30_000));
    act(() => vi.advanceTimersByTime(1_000));
    expect(warn).not.toHaveBeenCalled();
  });

  // A session restored within the warning: the clock shows it at once, before React mounts what
  // the session gates.
  test('a warning mounted with the session (under <SignedIn>): nothing said', () => {
    vi.useFakeTimers();
    const warn = quietWarnings();
    const auth = createMockAuthClient({ state: 'loading' });
    render(
      app(
        auth,
        <SignedIn>
          <IdleWarning />
        </SignedIn>,
      ),
    );
    act(() => {
      auth.set({ state: 'authenticated', user: createTestUser() });
      auth.setIdleWarning(30_000);
    });
    act(() => vi.advanceTimersByTime(1_000));
    expect(document.querySelector('dialog')).not.toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  test('in production: nothing said', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const warn = quietWarnings();
    const auth = createMockAuthClient({ user: createTestUser() });
    vi.useFakeTimers();
    render(app(auth));
    act(() => auth.setIdleWarning(30_000));
    act(() => vi.advanceTimersByTime(1_000));
    expect(warn).not.toHaveBeenCalled();
  });
});

// A layout may render the warning always and set `idle` per deployment, as the reference app does.
test('a warning rendered under a client with idle sign-out off: nothing said', () => {
  harness = createHarness();
  const warn = quietWarnings();
  render(
    app(
      harness.createClient(),
      <>
        <IdleWarning />
        <OwnWarning />
      </>,
    ),
  );
  expect(warn).not.toHaveBeenCalled();
});
