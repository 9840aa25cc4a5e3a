import { useLoaderData } from 'react-router';
import type { AdminStats } from '../api/types';
import { LoadedCard } from '../components/LoadedCard';
import ui from '../styles/ui.module.css';

/** Admins only: statistics from the API's admin endpoint. */
export function AdminPage() {
  const stats = useLoaderData<AdminStats>();
  return (
    <>
      <h1>Admin</h1>
      <p className={ui.lead}>
        Only users with the admin role reach this page and its API endpoint.
      </p>
      <LoadedCard title="GET /admin/stats" reloadLabel="Load again">
        <dl className={ui.facts}>
          <dt>Distinct users</dt>
          <dd>{stats.distinctUsers}</dd>
          <dt>Authenticated requests</dt>
          <dd>{stats.authenticatedRequests}</dd>
          <dt>API uptime</dt>
          <dd>{stats.uptimeSeconds} s</dd>
        </dl>
      </LoadedCard>
    </>
  );
}
