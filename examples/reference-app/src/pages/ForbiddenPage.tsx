import { Link } from 'react-router';
import ui from '../styles/ui.module.css';

/** A signed-in user without the role a page needs. */
export function ForbiddenPage() {
  return (
    <section className={`${ui.card} ${ui.narrow}`} aria-labelledby="forbidden">
      <p className={ui.statusCode}>403</p>
      <h1 id="forbidden">Forbidden</h1>
      <p>You are signed in, but this page needs a role your account does not have.</p>
      <Link to="/" className={`${ui.button} ${ui.secondary}`}>
        Back to the home page
      </Link>
    </section>
  );
}
