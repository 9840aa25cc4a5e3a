import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { fact } from '../test/fact';
import { renderAt } from '../test/renderAt';
import { alice, me } from '../test/users';
import { apiOrigin, withApi } from '../test/withApi';

afterEach(() => sessionStorage.clear());

describe('pages', () => {
  test('the dashboard loads what the API answered, and calls it again', async () => {
    const { auth, fetch } = withApi({ user: alice() }, async () => Response.json(me));
    renderAt('/dashboard', auth);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeDefined();
    expect(fact('Subject')).toBe('alice');
    expect(fact('Roles')).toBe('user');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toMatchObject({ url: `${apiOrigin}/me` });
    await userEvent.click(screen.getByRole('button', { name: 'Call the API again' }));
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });
});
