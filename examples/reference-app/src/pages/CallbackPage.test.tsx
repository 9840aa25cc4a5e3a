import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test } from 'vitest';
import { createMockAuthClient } from '@oidc-kit/react/testing';
import { renderAt } from '../test/renderAt';

afterEach(() => sessionStorage.clear());

describe('pages', () => {
  test('a sign-in that failed back on /callback is shown once, with one Try again', async () => {
    // E.g. sign-in started on /callback (its return path) and cancelled at the provider.
    const auth = createMockAuthClient({ state: 'error' });
    renderAt('/callback', auth);
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      expect.stringContaining('Sign-in was cancelled.'),
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'Sign-in' })).toBeDefined();
    expect(screen.getAllByText('Sign-in was cancelled.', { exact: false })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Try again' })).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('/callback while the sign-in response is processed shows progress under a heading', async () => {
    renderAt('/callback', createMockAuthClient({ state: 'signing-in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign-in' })).toBeDefined();
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
  });
});
