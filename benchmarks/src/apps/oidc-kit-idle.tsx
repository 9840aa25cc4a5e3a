// The typical app entry with idle sign-out on: `idle` in the config and `<IdleWarning />` (the
// idle clock's chunk loads when the client starts). Measured for size only.
import { createRoot } from 'react-dom/client';
import { AuthProvider, IdleWarning, RequireAuth, SignInButton, useAuth } from '@oidc-kit/react';

const config = {
  authority: __OIDC_AUTHORITY__,
  client_id: __OIDC_CLIENT_ID__,
  redirect_uri: `${location.origin}/callback`,
  post_logout_redirect_uri: `${location.origin}/`,
  scope: 'openid profile email',
  idle: { timeout: 15 * 60_000 },
};

function Header() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <p>Loading…</p>;
  if (user === null) return <SignInButton />;
  return <p data-testid="user-name">{user.profile.name}</p>;
}

function Private() {
  return <h1>Private page</h1>;
}

function App() {
  return (
    <AuthProvider config={config}>
      <IdleWarning />
      <Header />
      {location.pathname === '/private' ? (
        <RequireAuth>
          <Private />
        </RequireAuth>
      ) : null}
    </AuthProvider>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
