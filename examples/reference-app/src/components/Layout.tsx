import { useRef } from 'react';
import { NavLink, Outlet } from 'react-router';
import {
  IdleWarning,
  SignInButton,
  SignOutButton,
  SignedIn,
  SignedOut,
  useAuthState,
} from '@oidc-kit/react';
import { MainNav } from './MainNav';
import { NavigationStatus } from './NavigationStatus';
import { PageLoading } from './PageLoading';
import { SignInProblem } from './SignInProblem';
import { PageHeading } from './PageHeading';
import { useRevalidateOnUserChange } from './useRevalidateOnUserChange';
import layout from '../styles/layout.module.css';
import ui from '../styles/ui.module.css';

/** Every page: the header with the user and the links they may open, then the page. */
export function Layout() {
  // Only what the header shows: a token renewal re-renders none of it.
  const checking = useAuthState((state) => state.status === 'loading');
  const name = useAuthState((state) => state.user?.profile.name);
  const stale = useRevalidateOnUserChange();
  const main = useRef<HTMLElement>(null);
  return (
    <div className={layout.app}>
      <header className={layout.header}>
        <NavLink to="/" className={layout.brand}>
          <span aria-hidden="true" className={layout.brandMark} />
          Acme Orders
        </NavLink>
        <MainNav />
        <div className={layout.session} aria-live="polite">
          {checking && <span className={ui.muted}>Checking session…</span>}
          <SignedIn>
            <span className={layout.userName}>{name}</span>
            <SignOutButton className={`${ui.button} ${ui.secondary}`} />
          </SignedIn>
          <SignedOut>
            <SignInButton className={ui.button} />
          </SignedOut>
        </div>
      </header>
      <SignInProblem />
      {/* Shows only when idle sign-out is on (VITE_OIDC_IDLE_TIMEOUT) and the end is near. */}
      <IdleWarning
        className={ui.dialog}
        backdropClassName={ui.backdrop}
        stayClassName={ui.button}
        signOutClassName={`${ui.button} ${ui.secondary}`}
      />
      {/* Its own component: a navigation re-renders it, not the layout. */}
      <PageHeading main={main} />
      <main className={layout.main} ref={main}>
        <NavigationStatus />
        {stale ? <PageLoading /> : <Outlet />}
      </main>
      <footer className={layout.footer}>
        oidc-kit reference app · sign-in through OpenID Connect with{' '}
        <a href="https://github.com/oidc-kit/oidc-kit">@oidc-kit/react</a>
      </footer>
    </div>
  );
}
