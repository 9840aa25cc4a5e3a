// The typical app entry with @oidc-kit/react: the provider, `useAuth`, a sign-in button and a
// guarded route. Measured for size (row 1) and run in Chromium against the dev provider (row 4).
import { createRoot } from 'react-dom/client';
import { AuthProvider, RequireAuth, SignInButton, useAuth } from '@oidc-kit/react';

const config = {
  authority: __OIDC_AUTHORITY__,
  client_id: __OIDC_CLIENT_ID__,
  redirect_uri: `${location.origin}/callback`,
  post_logout_redirect_uri: `${location.origin}/`,
  scope: 'openid profile email',
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
