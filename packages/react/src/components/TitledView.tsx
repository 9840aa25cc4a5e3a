import { useId } from 'react';
import type { ReactNode } from 'react';

/**
 * The frame of the guard's default views: named by a short bold title rather than a heading, so
 * it fits any page's outline. An alert (`alert`) or a region.
 */
export function TitledView({
  alert,
  title,
  children,
}: {
  alert: boolean;
  title: string;
  children: ReactNode;
}): ReactNode {
  const id = useId();
  const Frame = alert ? 'div' : 'section';
  return (
    <Frame role={alert ? 'alert' : undefined} aria-labelledby={id}>
      <p>
        <strong id={id}>{title}</strong>
      </p>
      {children}
    </Frame>
  );
}
