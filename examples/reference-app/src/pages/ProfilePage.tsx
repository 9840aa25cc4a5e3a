import { useState } from 'react';
import { useAuthActions, useSessionExpiry, useUser } from '@oidc-kit/react';

function formatClaim(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && value > 1_000_000_000)
    return new Date(value * 1000).toLocaleString();
  return JSON.stringify(value);
}

/** The signed-in user's claims and the access token's lifetime. */
export function ProfilePage() {
  const user = useUser();
  const { renew } = useAuthActions();
  const { secondsLeft, isExpiring, expiresAt } = useSessionExpiry(30);
  const [renewing, setRenewing] = useState(false);
  const [renewError, setRenewError] = useState<string | null>(null);

  const renewNow = () => {
    setRenewing(true);
    setRenewError(null);
    renew()
      .catch((error: unknown) =>
        setRenewError(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => setRenewing(false));
  };

  return (
    <>
      <h1>Profile</h1>
      <section className="card" aria-labelledby="token">
        <div className="card-header">
          <h2 id="token">Access token</h2>
          <button
            type="button"
            className="button secondary"
            onClick={renewNow}
            disabled={renewing}
            aria-busy={renewing || undefined}
          >
            Renew now
          </button>
        </div>
        <p>
          Expires in{' '}
          <strong className={isExpiring ? 'expiring' : undefined}>{secondsLeft ?? '—'}</strong>{' '}
          seconds{expiresAt ? ` (at ${expiresAt.toLocaleTimeString()})` : ''}. It is renewed
          automatically before it expires.
        </p>
        {renewError && (
          <p role="alert" className="problem-text">
            {renewError}
          </p>
        )}
      </section>
      <section className="card" aria-labelledby="claims">
        <h2 id="claims">Your claims</h2>
        <table className="claims">
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
                  <code>{claim}</code>
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
