import { useLoaderData, useRevalidator } from 'react-router';
import type { AdminStats } from '../api/types';

/** Admins only: statistics from the API's admin endpoint. */
export function AdminPage() {
  const stats = useLoaderData<AdminStats>();
  const { revalidate, state } = useRevalidator();
  const loading = state === 'loading';
  return (
    <>
      <h1>Admin</h1>
      <p className="lead">Only users with the admin role reach this page and its API endpoint.</p>
      <section className="card" aria-labelledby="stats" aria-busy={loading || undefined}>
        <div className="card-header">
          <h2 id="stats">GET /admin/stats</h2>
          <button
            type="button"
            className="button secondary"
            onClick={() => void revalidate()}
            disabled={loading}
          >
            Load again
          </button>
        </div>
        <dl className="facts">
          <dt>Distinct users</dt>
          <dd>{stats.distinctUsers}</dd>
          <dt>Authenticated requests</dt>
          <dd>{stats.authenticatedRequests}</dd>
          <dt>API uptime</dt>
          <dd>{stats.uptimeSeconds} s</dd>
        </dl>
      </section>
    </>
  );
}
