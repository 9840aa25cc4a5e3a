import type { ReactNode } from 'react';
import { TitledView } from './TitledView';

/** Props of {@link AuthSignInNeeded}. */
export interface AuthSignInNeededProps {
  /** Starts sign-in. */
  signIn: () => void;
  title?: string;
  signInLabel?: string;
  children?: ReactNode;
}

/**
 * The guard's default when it will not redirect by itself (the user came back signed out): a
 * region named by `title`, `children` as its text, and a sign-in button. Every text is a prop.
 */
export function AuthSignInNeeded({
  signIn,
  title = 'Sign-in needed',
  signInLabel = 'Sign in',
  children = 'This page is for signed-in users.',
}: AuthSignInNeededProps): ReactNode {
  return (
    <TitledView alert={false} title={title}>
      <p>{children}</p>
      <button type="button" onClick={signIn}>
        {signInLabel}
      </button>
    </TitledView>
  );
}
