import { NavLink } from 'react-router';
import { Authorized } from '@oidc-kit/react';
import { mainNav } from '../navigation';
import layout from '../styles/layout.module.css';

/** The header's links (`navigation.ts`), each shown only to the users its page lets in. */
export function MainNav() {
  return (
    <nav aria-label="Main" className={layout.nav}>
      {mainNav.map(({ to, label, access }) =>
        access === undefined ? (
          <NavLink key={to} to={to}>
            {label}
          </NavLink>
        ) : (
          // Never starts a sign-in; with no requirement, shows to any signed-in user.
          <Authorized key={to} {...access}>
            <NavLink to={to}>{label}</NavLink>
          </Authorized>
        ),
      )}
    </nav>
  );
}
