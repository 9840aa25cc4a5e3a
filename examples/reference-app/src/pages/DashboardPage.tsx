import { useLoaderData } from 'react-router';
import { useUser } from '@oidc-kit/react';
import type { Me } from '../api/types';
import { LoadedCard } from '../components/LoadedCard';
import ui from '../styles/ui.module.css';

/** Signed-in users: what the API says about them, read from their verified access token. */
export function DashboardPage() {
  const me = useLoaderData<Me>();
  const user = useUser();
  return (
    <>
      <h1>Dashboard</h1>
      <p className={ui.lead}>Hello {user?.name}. The API read this from your access token:</p>
      <LoadedCard title="GET /me" reloadLabel="Call the API again">
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
      </LoadedCard>
    </>
  );
}
