import { useId } from 'react';
import type { ReactNode } from 'react';
import { useRevalidator } from 'react-router';
import ui from '../styles/ui.module.css';

/**
 * A card of data a route's loader loaded, titled, with a button that runs the loader again
 * (`useRevalidator`); busy while it runs.
 */
export function LoadedCard({
  title,
  reloadLabel,
  children,
}: {
  title: string;
  reloadLabel: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const { revalidate, state } = useRevalidator();
  const loading = state === 'loading';
  return (
    <section className={ui.card} aria-labelledby={titleId} aria-busy={loading || undefined}>
      <div className={ui.cardHeader}>
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className={`${ui.button} ${ui.secondary}`}
          onClick={() => void revalidate()}
          disabled={loading}
        >
          {reloadLabel}
        </button>
      </div>
      {children}
    </section>
  );
}
