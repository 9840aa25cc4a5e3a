import type { ReactNode } from 'react';
import { TitledView } from './TitledView';

/**
 * The guard's default for a signed-in user who lacks access: an alert named by `title`, with
 * `children` as its text. No heading and no link: it sits inside your page, whose outline and
 * routes are yours (pass your own `forbidden` to add a way out).
 */
export function AuthForbidden({
  title = 'Forbidden',
  children = 'You are signed in, but your account does not have access to this page.',
}: {
  title?: string;
  children?: ReactNode;
}): ReactNode {
  return (
    <TitledView alert title={title}>
      <p>{children}</p>
    </TitledView>
  );
}
