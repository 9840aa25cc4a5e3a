import type { AccessRequirements } from '@oidc-kit/react';
import { access } from './access';

/** A link of the header's main navigation. */
export interface NavItem {
  readonly to: string;
  readonly label: string;
  /** Who sees it: signed-in users who meet this entry of `access.ts`, the page's own. Unset: everyone. */
  readonly access?: AccessRequirements;
}

/** The header's links, in order (`components/MainNav.tsx` shows them). Add a new screen's here. */
export const mainNav: readonly NavItem[] = [
  { to: '/', label: 'Home' },
  { to: '/dashboard', label: 'Dashboard', access: access.signedIn },
  { to: '/profile', label: 'Profile', access: access.signedIn },
  { to: '/admin', label: 'Admin', access: access.admin },
];
