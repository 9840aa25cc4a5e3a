// The same app with react-oidc-context: its `AuthProvider`, `useAuth` and
// `withAuthenticationRequired`, configured as its README says (including `onSigninCallback`, which
// it requires to clean the address after sign-in).
import { createRoot } from 'react-dom/client';
import { AuthProvider, useAuth, withAuthenticationRequired } from 'react-oidc-context';

const config = {
  authority: __OIDC_AUTHORITY__,
  client_id: __OIDC_CLIENT_ID__,
  redirect_uri: `${location.origin}/callback`,
  post_logout_redirect_uri: `${location.origin}/`,
  scope: 'openid profile email',
  onSigninCallback: () => history.replaceState({}, document.title, '/'),
};

function Header() {
  const auth = useAuth();
  if (auth.isLoading) return <p>Loading…</p>;
  if (!auth.user) {
    return (
      <button type="button" onClick={() => void auth.signinRedirect()}>
        Sign in
      </button>
    );
  }
  return <p data-testid="user-name">{auth.user.profile.name}</p>;
}

const Private = withAuthenticationRequired(function Private() {
  return <h1>Private page</h1>;
});

function App() {
  return (
    <AuthProvider {...config}>
      <Header />
      {location.pathname === '/private' ? <Private /> : null}
    </AuthProvider>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
