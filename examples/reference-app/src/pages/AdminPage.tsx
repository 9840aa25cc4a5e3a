import { useLoaderData, useRevalidator } from 'react-router';
import type { AdminStats } from './adminLoader';

/** Admins only: statistics from the API's admin endpoint, loaded by the route's loader. */
export function AdminPage() {
  const stats = useLoaderData() as AdminStats;
  const { revalidate, state } = useRevalidator();
  return (
    <>
      <h1>Admin</h1>
      <p className="lead">Only users with the admin role reach this page and its API endpoint.</p>
      <section className="card" aria-labelledby="stats">
        <div className="card-header">
          <h2 id="stats">GET /admin/stats</h2>
          <button
            type="button"
            className="button secondary"
            onClick={() => void revalidate()}
            aria-busy={state === 'loading'}
            disabled={state === 'loading'}
          >
            Load again
          </button>
        </div>
        <dl className="facts" data-testid="admin-stats">
          <dt>Distinct users</dt>
          <dd data-testid="distinct-users">{stats.distinctUsers}</dd>
          <dt>Authenticated requests</dt>
          <dd data-testid="authenticated-requests">{stats.authenticatedRequests}</dd>
          <dt>API uptime</dt>
          <dd>{stats.uptimeSeconds} s</dd>
        </dl>
      </section>
    </>
  );
}
