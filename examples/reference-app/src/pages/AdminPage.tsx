import { useLoaderData, useRevalidator } from 'react-router';
import type { AdminStats } from '../api/types';
import ui from '../styles/ui.module.css';

/** Admins only: statistics from the API's admin endpoint. */
export function AdminPage() {
  const stats = useLoaderData<AdminStats>();
  const { revalidate, state } = useRevalidator();
  const loading = state === 'loading';
  return (
    <>
      <h1>Admin</h1>
      <p className={ui.lead}>
        Only users with the admin role reach this page and its API endpoint.
      </p>
      <section className={ui.card} aria-labelledby="stats" aria-busy={loading || undefined}>
        <div className={ui.cardHeader}>
          <h2 id="stats">GET /admin/stats</h2>
          <button
            type="button"
            className={`${ui.button} ${ui.secondary}`}
            onClick={() => void revalidate()}
            disabled={loading}
          >
            Load again
          </button>
        </div>
        <dl className={ui.facts}>
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
