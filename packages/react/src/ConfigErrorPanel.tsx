import type { ReactNode } from 'react';
import type { AuthError } from './core/errors';
import { errorsDocs } from './core/errors';

const panel = {
  margin: '2rem auto',
  maxWidth: '42rem',
  padding: '1rem 1.5rem',
  border: '2px solid #b42318',
  borderRadius: '8px',
  background: '#fef3f2',
  color: '#1d1d1f',
  font: '16px/1.5 system-ui, sans-serif',
} as const;

/**
 * Development builds only: what `AuthProvider` renders in place of the app when its config is
 * wrong, so the mistake shows on the page rather than as a blank one.
 */
export function ConfigErrorPanel({ error }: { error: AuthError }): ReactNode {
  return (
    <section role="alert" aria-labelledby="oidc-kit-config-error" style={panel}>
      <h1 id="oidc-kit-config-error" style={{ fontSize: '1.25rem', margin: '0 0 0.5rem' }}>
        oidc-kit: the auth configuration is invalid
      </h1>
      <p style={{ margin: '0 0 0.5rem' }}>{error.message}</p>
      <p style={{ margin: 0 }}>
        Setting: <code>{error.field}</code> ·{' '}
        <a href={`${errorsDocs}#config_invalid`}>What to do</a>
      </p>
      <p style={{ margin: '0.5rem 0 0', fontSize: '0.875rem' }}>
        Shown in development builds only. In production the app renders, in the <code>error</code>{' '}
        state with this error.
      </p>
    </section>
  );
}
