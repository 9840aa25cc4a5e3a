// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { expect, test } from 'vitest';
import { AuthProvider, useAuth, useSessionExpiry, useUser } from './index';

function Page() {
  const { status, isLoading } = useAuth();
  const user = useUser();
  const { secondsLeft } = useSessionExpiry();
  return (
    <p>
      {status}/{String(isLoading)}/{user === null ? 'nobody' : 'somebody'}/{String(secondsLeft)}
    </p>
  );
}

test('renders on the server with no window, document or storage, in the loading state', () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
  expect(typeof sessionStorage).toBe('undefined');
  const html = renderToString(
    <AuthProvider
      config={{
        authority: 'https://login.example.com',
        client_id: 'web',
        redirect_uri: 'https://app.example.com/callback',
      }}
    >
      <Page />
    </AuthProvider>,
  );
  expect(html).toBe(
    '<p>loading<!-- -->/<!-- -->true<!-- -->/<!-- -->nobody<!-- -->/<!-- -->null</p>',
  );
});
