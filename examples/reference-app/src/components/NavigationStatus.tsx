import { useNavigation } from 'react-router';
import layout from '../styles/layout.module.css';

/** Says "Loading…" while the next page's loader runs; the current page stays until it is ready. */
export function NavigationStatus() {
  const loading = useNavigation().state === 'loading';
  return loading ? (
    <p role="status" className={layout.navigationStatus}>
      Loading…
    </p>
  ) : null;
}
