import { RouterProvider, createBrowserRouter } from 'react-router';
import { AuthProvider } from '@oidc-kit/react';
import { auth } from './auth';
import { createRoutes } from './routes';

const router = createBrowserRouter(createRoutes(auth));

/** The app: the auth client (built as this module loads) and the router. */
export function App() {
  return (
    <AuthProvider client={auth}>
      <RouterProvider router={router} />
    </AuthProvider>
  );
}
