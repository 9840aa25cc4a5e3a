import type { Meta, StoryObj } from '@storybook/react-vite';
import { AuthError } from '@oidc-kit/react';
import { AuthErrorMessage } from './AuthErrorMessage';
import { AuthForbidden } from './AuthForbidden';
import { AuthPending } from './AuthPending';
import { AuthSignInNeeded } from './AuthSignInNeeded';

const cancelled = new AuthError('provider_error', 'access_denied', {
  providerError: 'access_denied',
});

/** The guard's default views, as `RequireAuth` shows them, and with every text replaced. */
const meta = {
  title: 'Components/Default views',
  component: AuthSignInNeeded,
  args: { signIn: () => undefined },
} satisfies Meta<typeof AuthSignInNeeded>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Defaults: Story = {
  render: (args) => (
    <>
      <AuthPending />
      <AuthForbidden />
      <AuthErrorMessage error={cancelled} retry={() => undefined} />
      <AuthSignInNeeded {...args} />
    </>
  ),
};

export const TextsReplaced: Story = {
  name: 'Texts replaced (French)',
  args: { title: 'Connexion requise', signInLabel: 'Se connecter', children: 'Page réservée.' },
  render: (args) => (
    <div lang="fr">
      <AuthPending>Vérification de la session…</AuthPending>
      <AuthForbidden title="Accès refusé">Il vous manque un rôle pour cette page.</AuthForbidden>
      <AuthErrorMessage
        error={cancelled}
        retry={() => undefined}
        title="Échec de la connexion"
        retryLabel="Réessayer"
        describe={() => 'La connexion a été annulée.'}
      />
      <AuthSignInNeeded {...args} />
    </div>
  ),
};
