import { Link } from 'react-router';
import ui from '../styles/ui.module.css';

/** Any path the app does not know. */
export function NotFoundPage() {
  return (
    <section className={`${ui.card} ${ui.narrow}`} aria-labelledby="not-found">
      <p className={ui.statusCode}>404</p>
      <h1 id="not-found">Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link to="/" className={`${ui.button} ${ui.secondary}`}>
        Back to the home page
      </Link>
    </section>
  );
}
