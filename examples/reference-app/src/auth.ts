import { AuthClient } from '@oidc-kit/react';
import { authConfig } from './config';

/** The app's one auth client: used by the provider, the hooks and the route loaders. */
export const auth = new AuthClient(authConfig);
