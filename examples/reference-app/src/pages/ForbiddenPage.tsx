import { Link } from 'react-router';

/** A signed-in user without the role a page needs. */
export function ForbiddenPage() {
  return (
    <section className="card narrow" aria-labelledby="forbidden">
      <p className="code">403</p>
      <h1 id="forbidden">Forbidden</h1>
      <p>You are signed in, but this page needs a role your account does not have.</p>
      <Link to="/" className="button secondary">
        Back to the home page
      </Link>
    </section>
  );
}
