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
 * The app's routes. Add product screens here, among the guarded pages; each gets a loader from
 * `loaders.ts`, which guards it and loads its data (see "Add a screen" in the README).
 */
export function createRoutes(auth: AuthContextValue): RouteObject[] {
  const loaders = createLoaders(auth);
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
        { path: 'signed-out', Component: SignedOutPage },
        {
          // A failed loader below (403, sign-in needed, the API down) shows inside the layout, with
          // the header, for every page put here: new screens need no ErrorBoundary of their own.
          ErrorBoundary: RouteErrorPage,
          children: [
            { path: 'dashboard', loader: loaders.dashboard, Component: DashboardPage },
            { path: 'profile', loader: loaders.profile, Component: ProfilePage },
            { path: 'admin', loader: loaders.admin, Component: AdminPage },
          ],
        },
        { path: '*', Component: NotFoundPage },
      ],
    },
  ];
}
