import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { AuthError } from '@oidc-kit/react';
import { createMockAuthClient, createTestUser } from '@oidc-kit/react/testing';
import { renderAt } from '../test/renderAt';
import { alice } from '../test/users';

afterEach(() => sessionStorage.clear());

describe('pages', () => {
  test('the profile lists the claims, the expiry and renews on demand', async () => {
    const auth = createMockAuthClient({ user: alice() });
    renderAt('/profile', auth);
    expect(await screen.findByRole('rowheader', { name: 'name' })).toBeDefined();
    const expiry = screen.getByText(/^Expires in/);
    expect(Number(/Expires in (\d+)/.exec(expiry.textContent ?? '')?.[1])).toBeGreaterThan(110);
    await userEvent.click(screen.getByRole('button', { name: 'Renew now' }));
    expect(auth.renew.calls).toHaveLength(1);
    // The mock, as the real client within 10 s of its last token request, gives the same tokens.
    expect((await screen.findByRole('status')).textContent).toContain('Not renewed');
  });

  test('Renew now that gets new tokens says nothing more: the expiry moves on', async () => {
    const auth = createMockAuthClient({ user: alice() });
    const renewed = createTestUser({ name: 'Alice Liddell', expiresIn: 7200 });
    const renew = Object.assign(
      async () => {
        auth.set({ user: renewed });
        return renewed;
      },
      { calls: [] },
    );
    renderAt('/profile', { ...auth, renew });
    await userEvent.click(await screen.findByRole('button', { name: 'Renew now' }));
    await vi.waitFor(() =>
      expect(
        Number(/Expires in (\d+)/.exec(screen.getByText(/^Expires in/).textContent ?? '')?.[1]),
      ).toBeGreaterThan(3600),
    );
    expect(screen.queryByText(/Not renewed/)).toBeNull();
  });

  test('a failed Renew now is shown once, by the banner, and the session is kept', async () => {
    const auth = createMockAuthClient({ user: alice() });
    const failed = new AuthError('renew_failed', 'The token endpoint answered 503.');
    // As the real client: a renewal that fails for a passing reason keeps the session, with the error.
    const renew = Object.assign(
      async () => {
        auth.set({ error: failed });
        throw failed;
      },
      { calls: [] },
    );
    renderAt('/profile', { ...auth, renew });
    await userEvent.click(await screen.findByRole('button', { name: 'Renew now' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your session could not be renewed just now');
    expect(within(alert).getByRole('button', { name: 'Dismiss' })).toBeDefined();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('rowheader', { name: 'name' })).toBeDefined();
  });
});
