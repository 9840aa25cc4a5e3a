import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { MockAuthProvider } from '@oidc-kit/react/testing';
import type { MockAuthClient } from '@oidc-kit/react/testing';
import { createRoutes } from '../routes';

/** The app's own routes and loaders at `path`, over a mock auth client. */
export function renderAt(path: string, auth: MockAuthClient) {
  const router = createMemoryRouter(createRoutes(auth), { initialEntries: [path] });
  render(
    <MockAuthProvider client={auth}>
      <RouterProvider router={router} />
    </MockAuthProvider>,
  );
  return router;
}
