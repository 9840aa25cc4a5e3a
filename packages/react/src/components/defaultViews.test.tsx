import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { AuthError } from '../core/errors';
import { AuthErrorMessage } from './AuthErrorMessage';
import { AuthForbidden } from './AuthForbidden';
import { AuthPending } from './AuthPending';
import { AuthSignInNeeded } from './AuthSignInNeeded';

const cancelled = new AuthError('provider_error', 'access_denied', {
  providerError: 'access_denied',
});

// The guard's default views go into the app's own page: no heading to break its outline, no link
// to a place the library cannot know, and every text replaceable.
describe('the default views', () => {
  test('insert no heading and no link', () => {
    render(
      <>
        <AuthPending />
        <AuthForbidden />
        <AuthErrorMessage error={cancelled} retry={() => undefined} />
        <AuthSignInNeeded signIn={() => undefined} />
      </>,
    );
    expect(screen.queryAllByRole('heading')).toEqual([]);
    expect(screen.queryAllByRole('link')).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
    // Worded for any requirement: roles, scopes or `when`.
    expect(screen.getByRole('alert', { name: 'Forbidden' }).textContent).toContain(
      'You are signed in, but your account does not have access to this page.',
    );
    expect(screen.getByRole('alert', { name: 'Sign-in failed' }).textContent).toContain(
      'Sign-in was cancelled.',
    );
    expect(screen.getByRole('region', { name: 'Sign-in needed' })).toBeDefined();
  });

  test('take every text from props', async () => {
    const retry = vi.fn();
    const signIn = vi.fn();
    render(
      <>
        <AuthPending>Un instant…</AuthPending>
        <AuthForbidden title="Accès refusé">Il vous manque un rôle.</AuthForbidden>
        <AuthErrorMessage
          error={cancelled}
          retry={retry}
          title="Échec de la connexion"
          retryLabel="Réessayer"
          describe={() => 'Connexion annulée.'}
        />
        <AuthSignInNeeded signIn={signIn} title="Connexion requise" signInLabel="Se connecter">
          Cette page est réservée.
        </AuthSignInNeeded>
      </>,
    );
    expect(screen.getByRole('status').textContent).toBe('Un instant…');
    expect(screen.getByRole('alert', { name: 'Accès refusé' }).textContent).toContain(
      'Il vous manque un rôle.',
    );
    const failed = screen.getByRole('alert', { name: 'Échec de la connexion' });
    expect(failed.textContent).toContain('Connexion annulée.');
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('region', { name: 'Connexion requise' }).textContent).toContain(
      'Cette page est réservée.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(signIn).toHaveBeenCalledTimes(1);
  });
});
