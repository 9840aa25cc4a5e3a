import { useNavigation } from 'react-router';

/** Says "Loading…" while the next page's loader runs; the current page stays until it is ready. */
export function NavigationStatus() {
  const loading = useNavigation().state === 'loading';
  return loading ? (
    <p role="status" className="navigation-status">
      Loading…
    </p>
  ) : null;
}
