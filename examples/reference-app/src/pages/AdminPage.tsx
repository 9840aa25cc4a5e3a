import { useLoaderData } from 'react-router';
import type { AdminStats } from './adminLoader';

/** Admins only: statistics from the API's admin endpoint, loaded by the route's loader. */
export function AdminPage() {
  const stats = useLoaderData() as AdminStats;
  return (
    <>
      <h1>Admin</h1>
      <p className="lead">Only users with the admin role reach this page and its API endpoint.</p>
      <section className="card" aria-labelledby="stats">
        <h2 id="stats">GET /admin/stats</h2>
        <dl className="facts" data-testid="admin-stats">
          {Object.entries(stats).map(([key, value]) => (
            <div key={key} className="fact">
              <dt>{key}</dt>
              <dd>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  );
}
