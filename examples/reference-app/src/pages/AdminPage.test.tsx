import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { fact } from '../test/fact';
import { renderAt } from '../test/renderAt';
import { bob } from '../test/users';
import { withApi } from '../test/withApi';

afterEach(() => sessionStorage.clear());

describe('pages', () => {
  test('the admin page shows the statistics and loads them again', async () => {
    let requests = 0;
    const { auth } = withApi({ user: bob() }, async () => {
      requests += 1;
      return Response.json({
        distinctUsers: 2,
        authenticatedRequests: requests,
        uptimeSeconds: 85,
      });
    });
    renderAt('/admin', auth);
    expect(await screen.findByRole('heading', { name: 'Admin' })).toBeDefined();
    expect(fact('Distinct users')).toBe('2');
    expect(fact('API uptime')).toBe('85 s');
    expect(fact('Authenticated requests')).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: 'Load again' }));
    await vi.waitFor(() => expect(fact('Authenticated requests')).toBe('2'));
  });
});
