import { Link } from 'react-router';

/** Any path the app does not know. */
export function NotFoundPage() {
  return (
    <section className="card narrow" aria-labelledby="not-found">
      <p className="code">404</p>
      <h1 id="not-found">Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link to="/" className="button secondary">
        Back to the home page
      </Link>
    </section>
  );
}
