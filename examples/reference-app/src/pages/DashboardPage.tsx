import { useLoaderData, useRevalidator } from 'react-router';
import { useUser } from '@oidc-kit/react';
import type { Me } from '../api/types';
import ui from '../styles/ui.module.css';

/** Signed-in users: what the API says about them, read from their verified access token. */
export function DashboardPage() {
  const me = useLoaderData<Me>();
  const user = useUser();
  const { revalidate, state } = useRevalidator();
  const loading = state === 'loading';
  return (
    <>
      <h1>Dashboard</h1>
      <p className={ui.lead}>Hello {user?.name}. The API read this from your access token:</p>
      <section className={ui.card} aria-labelledby="api-answer" aria-busy={loading || undefined}>
        <div className={ui.cardHeader}>
          <h2 id="api-answer">GET /me</h2>
          <button
            type="button"
            className={`${ui.button} ${ui.secondary}`}
            onClick={() => void revalidate()}
            disabled={loading}
          >
            Call the API again
          </button>
        </div>
        <dl className={ui.facts}>
          <dt>Subject</dt>
          <dd>{me.sub}</dd>
          <dt>Name</dt>
          <dd>{me.name ?? '—'}</dd>
          <dt>Roles</dt>
          <dd>{me.roles.join(', ') || '—'}</dd>
          <dt>Scope</dt>
          <dd>{me.scope}</dd>
        </dl>
      </section>
    </>
  );
}
