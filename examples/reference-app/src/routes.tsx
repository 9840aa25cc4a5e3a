import type { RouteObject } from 'react-router';
import { AuthCallback } from '@oidc-kit/react/react-router';
import { Guard } from './components/Guard';
import { Layout } from './components/Layout';
import { AdminPage } from './pages/AdminPage';
import { adminLoader } from './pages/adminLoader';
import { DashboardPage } from './pages/DashboardPage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProfilePage } from './pages/ProfilePage';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { SignedOutPage } from './pages/SignedOutPage';

/** The app's routes: add product screens here, inside <Guard> when they need a signed-in user. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteErrorPage />,
    // Shown while a loader runs on the first page load (e.g. /admin waiting for the session).
    HydrateFallback: () => (
      <p role="status" className="main">
        Loading…
      </p>
    ),
    children: [
      { index: true, element: <HomePage /> },
      { path: 'callback', element: <AuthCallback /> },
      {
        path: 'dashboard',
        element: (
          <Guard>
            <DashboardPage />
          </Guard>
        ),
      },
      {
        path: 'profile',
        element: (
          <Guard>
            <ProfilePage />
          </Guard>
        ),
      },
      {
        // The loader guards before anything loads (403 for non-admins); <Guard> keeps the page
        // guarded when the session changes while it is open.
        path: 'admin',
        loader: adminLoader,
        errorElement: <RouteErrorPage />,
        element: (
          <Guard roles={['admin']}>
            <AdminPage />
          </Guard>
        ),
      },
      { path: 'signed-out', element: <SignedOutPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
