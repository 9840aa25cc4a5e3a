import { useState } from 'react';
import type { ReactNode } from 'react';
import { isAuthError, useAuthActions, useSessionExpiry, useUser } from '@oidc-kit/react';
import ui from '../styles/ui.module.css';

function formatClaim(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && value > 1_000_000_000)
    return new Date(value * 1000).toLocaleString();
  return JSON.stringify(value);
}

/** A claim's name that may wrap after its underscores (preferred_username) on a narrow screen. */
function breakable(claim: string): ReactNode[] {
  return claim.split(/(?<=_)/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

/** The signed-in user's claims and the access token's lifetime. */
export function ProfilePage() {
  const user = useUser();
  const { renew } = useAuthActions();
  const { secondsLeft, isExpiring, expiresAt } = useSessionExpiry(30);
  const [renewing, setRenewing] = useState(false);
  const [renewError, setRenewError] = useState<string | null>(null);
  const [unchanged, setUnchanged] = useState(false);

  const renewNow = () => {
    const before = expiresAt?.getTime();
    setRenewing(true);
    setRenewError(null);
    setUnchanged(false);
    renew()
      // The library sends at most one token request every 10 s (its session protocol, rule 5): a
      // click sooner after the last one gives the same tokens back, which the page says.
      .then((renewed) =>
        setUnchanged(renewed?.expires_at !== undefined && renewed.expires_at * 1000 === before),
      )
      .catch((error: unknown) => {
        // A failed renewal rejects with the AuthError the client also keeps in its state beside the
        // session, which the banner under the header shows: only another failure is shown here.
        if (!isAuthError(error))
          setRenewError(error instanceof Error ? error.message : String(error));
      })
      .finally(() => setRenewing(false));
  };

  return (
    <>
      <h1>Profile</h1>
      <section className={ui.card} aria-labelledby="token">
        <div className={ui.cardHeader}>
          <h2 id="token">Access token</h2>
          <button
            type="button"
            className={`${ui.button} ${ui.secondary}`}
            onClick={renewNow}
            disabled={renewing}
            aria-busy={renewing || undefined}
          >
            Renew now
          </button>
        </div>
        <p>
          Expires in{' '}
          <strong className={isExpiring ? ui.danger : undefined}>{secondsLeft ?? '—'}</strong>{' '}
          seconds{expiresAt ? ` (at ${expiresAt.toLocaleTimeString()})` : ''}. It is renewed
          automatically before it expires.
        </p>
        {unchanged && (
          <p role="status">
            Not renewed: these tokens are under 10 seconds old, and a new request is sent at most
            every 10 seconds. Try again in a moment.
          </p>
        )}
        {renewError && (
          <p role="alert" className={ui.danger}>
            {renewError}
          </p>
        )}
      </section>
      <section className={ui.card} aria-labelledby="claims">
        <h2 id="claims">Your claims</h2>
        <table className={ui.claims}>
          <thead>
            <tr>
              <th scope="col">Claim</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(user ?? {}).map(([claim, value]) => (
              <tr key={claim}>
                <th scope="row">
                  <code>{breakable(claim)}</code>
                </th>
                <td>{formatClaim(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
