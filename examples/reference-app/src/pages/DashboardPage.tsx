import { useUser } from '@oidc-kit/react';
import { useApi } from '../useApi';

interface Me {
  sub: string;
  name: string | null;
  roles: string[];
  scope: string;
}

/** Signed-in users: what the API says about them, from their verified access token. */
export function DashboardPage() {
  const user = useUser();
  const { result, calls, reload } = useApi<Me>('/me');
  return (
    <>
      <h1>Dashboard</h1>
      <p className="lead">Hello {user?.name}. The API read this from your access token:</p>
      <section className="card" aria-labelledby="api-answer">
        <div className="card-header">
          <h2 id="api-answer">GET /me</h2>
          <button type="button" className="button secondary" onClick={reload}>
            Call the API again
          </button>
        </div>
        <div
          aria-live="polite"
          data-testid="api-result"
          data-state={result.state}
          data-calls={calls}
        >
          {result.state === 'loading' && <p role="status">Calling the API…</p>}
          {result.state === 'failed' && (
            <p role="alert" className="problem-text">
              The API answered {result.status ?? 'nothing'}: {result.message}
            </p>
          )}
          {result.state === 'done' && (
            <dl className="facts">
              <dt>Subject</dt>
              <dd data-testid="api-sub">{result.data.sub}</dd>
              <dt>Name</dt>
              <dd>{result.data.name ?? '—'}</dd>
              <dt>Roles</dt>
              <dd>{result.data.roles.join(', ') || '—'}</dd>
              <dt>Scope</dt>
              <dd>{result.data.scope}</dd>
              <dt>Calls</dt>
              <dd data-testid="api-calls">{calls}</dd>
            </dl>
          )}
        </div>
      </section>
    </>
  );
}
