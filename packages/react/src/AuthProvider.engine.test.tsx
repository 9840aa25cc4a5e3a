import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { expect, test } from 'vitest';
import type { User } from 'oidc-client-ts';
import { AuthProvider } from './AuthProvider';
import type { AuthContextValue } from './authContext';
import { createAuthSnapshot } from './core/authState';
import type { AuthSnapshot } from './core/authState';
import type { IdleSnapshot } from './core/idleSnapshot';
import { useAuthFetch } from './hooks/useAuthFetch';
import { useIdle } from './hooks/useIdle';
import { useUser } from './hooks/useUser';
import { createTestUser } from './testing';

/**
 * Another engine behind the documented interface (a session held by a backend), written as an
 * ordinary class: its methods need their object, as a class's do.
 */
class BackendEngine implements AuthContextValue {
  snapshot: AuthSnapshot = createAuthSnapshot(
    'authenticated',
    createTestUser({ name: 'Ada' }),
    null,
  );
  listeners = new Set<() => void>();
  requests: string[] = [];
  idleSnapshot: IdleSnapshot = { status: 'warning', deadline: Date.now() + 30_000 };
  idleListeners = new Set<() => void>();
  stayed = 0;
  async start() {}
  stop() {}
  getSnapshot() {
    return this.snapshot;
  }
  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  rename(name: string) {
    this.snapshot = createAuthSnapshot('authenticated', createTestUser({ name }), null);
    for (const listener of this.listeners) listener();
  }
  async signIn() {}
  async signOut() {}
  async renew(): Promise<User | null> {
    return this.snapshot.user;
  }
  async getAccessToken() {
    return this.snapshot.user?.access_token ?? null;
  }
  async getAuthHeaders() {
    return null;
  }
  dismissError() {}
  readRoles() {
    return [];
  }
  async fetch(input: RequestInfo | URL) {
    this.requests.push(String(input));
    return new Response('{}');
  }
  readonly idle = {
    engine: this,
    getSnapshot() {
      return this.engine.idleSnapshot;
    },
    subscribe(listener: () => void) {
      this.engine.idleListeners.add(listener);
      return () => void this.engine.idleListeners.delete(listener);
    },
    stay() {
      this.engine.stayed += 1;
    },
  };
}

function Page() {
  const user = useUser();
  const idle = useIdle();
  const authFetch = useAuthFetch();
  return (
    <>
      <p>Signed in as {user?.name}</p>
      <p>Idle: {idle.status}</p>
      <button type="button" onClick={() => idle.stay()}>
        Stay
      </button>
      <button type="button" onClick={() => void authFetch('/api/orders')}>
        Load
      </button>
    </>
  );
}

test('an engine written as a class, methods and all, works behind AuthProvider', async () => {
  const engine = new BackendEngine();
  render(
    <StrictMode>
      <AuthProvider client={engine}>
        <Page />
      </AuthProvider>
    </StrictMode>,
  );
  expect(screen.getByText('Signed in as Ada')).toBeDefined();
  act(() => engine.rename('Grace'));
  expect(screen.getByText('Signed in as Grace')).toBeDefined();
  expect(screen.getByText('Idle: warning')).toBeDefined();
  await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
  expect(engine.stayed).toBe(1);
  await userEvent.click(screen.getByRole('button', { name: 'Load' }));
  expect(engine.requests).toEqual(['/api/orders']);
});
