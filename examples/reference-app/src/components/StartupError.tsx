import { isAuthError } from '@oidc-kit/react';

/**
 * What the page shows when the app cannot start: most often a wrong auth setting in `.env`, which
 * `new AuthClient(config)` refuses as `auth.ts` loads (a `config_invalid` error naming it).
 */
export function StartupError({ error }: { error: unknown }) {
  const config = isAuthError(error, 'config_invalid');
  return (
    <main className="main">
      <section className="banner problem" role="alert" aria-labelledby="startup-error">
        <h1 id="startup-error">
          {config ? 'The sign-in settings are wrong' : 'The app could not start'}
        </h1>
        <p>{error instanceof Error ? error.message : String(error)}</p>
        {config && error.field !== undefined && (
          <p>
            Setting: <code>{error.field}</code> (see <code>.env.example</code>)
          </p>
        )}
      </section>
    </main>
  );
}
