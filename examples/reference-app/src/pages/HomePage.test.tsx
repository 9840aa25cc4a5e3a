import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test } from 'vitest';
import { createMockAuthClient } from '@oidc-kit/react/testing';
import { renderAt } from '../test/renderAt';

afterEach(() => sessionStorage.clear());

describe('pages', () => {
  test('the home page offers sign-in by redirect and in a popup', async () => {
    for (const [name, options] of [
      ['Sign in to get started', { returnTo: '/dashboard', popup: undefined }],
      ['Sign in in a popup', { returnTo: undefined, popup: true }],
    ] as const) {
      const auth = createMockAuthClient({ state: 'unauthenticated' });
      renderAt('/', auth);
      await userEvent.click(await screen.findByRole('button', { name }));
      expect(auth.signIn.calls).toEqual([[options]]);
      document.body.innerHTML = '';
    }
  });
});
