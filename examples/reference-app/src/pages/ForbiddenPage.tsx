import { Link } from 'react-router';
import ui from '../styles/ui.module.css';

/**
 * A signed-in user without access to a page: `reason` says what was refused (a loader guard's
 * message, which names no requirement: a role, a scope or any other condition may have failed).
 */
export function ForbiddenPage({
  reason = 'Your account does not have access to this page.',
}: {
  reason?: string;
}) {
  return (
    <section className={`${ui.card} ${ui.narrow}`} aria-labelledby="forbidden">
      <p className={ui.statusCode}>403</p>
      <h1 id="forbidden">Forbidden</h1>
      <p>You are signed in. {reason}</p>
      <Link to="/" className={`${ui.button} ${ui.secondary}`}>
        Back to the home page
      </Link>
    </section>
  );
}
