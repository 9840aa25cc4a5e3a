import type { RouteObject } from 'react-router';
import type { AuthContextValue } from '@oidc-kit/react';
import { Layout } from './components/Layout';
import { PageLoading } from './components/PageLoading';
import { createLoaders } from './loaders';
import { AdminPage } from './pages/AdminPage';
import { CallbackPage } from './pages/CallbackPage';
import { DashboardPage } from './pages/DashboardPage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProfilePage } from './pages/ProfilePage';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { SignedOutPage } from './pages/SignedOutPage';
import layout from './styles/layout.module.css';

/**
 * The app's routes. Add product screens here; a screen for signed-in users (or a role) gets a
 * loader from `loaders.ts`, which guards it and loads its data.
 */
export function createRoutes(auth: AuthContextValue): RouteObject[] {
  const loaders = createLoaders(auth);
  // A failed loader (403, sign-in needed, the API down) shows inside the layout.
  const page = { ErrorBoundary: RouteErrorPage };
  return [
    {
      Component: Layout,
      ErrorBoundary: RouteErrorPage,
      // Shown while the first page's loader runs (e.g. /dashboard waiting for the session).
      HydrateFallback: () => (
        <main className={layout.main}>
          <PageLoading />
        </main>
      ),
      children: [
        { index: true, Component: HomePage },
        { path: 'callback', Component: CallbackPage },
        { path: 'dashboard', loader: loaders.dashboard, Component: DashboardPage, ...page },
        { path: 'profile', loader: loaders.profile, Component: ProfilePage, ...page },
        { path: 'admin', loader: loaders.admin, Component: AdminPage, ...page },
        { path: 'signed-out', Component: SignedOutPage },
        { path: '*', Component: NotFoundPage },
      ],
    },
  ];
}
