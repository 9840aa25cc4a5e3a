import { act } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, test, vi } from 'vitest';
import { IdleWarning } from '../components/IdleWarning';
import { MockAuthProvider, createTestUser } from '../testing';
import { useIdle } from './useIdle';

test('server render and hydration: no countdown until the clock is known, then the real one', async () => {
  const remaining: number[] = [];
  function Countdown() {
    const idle = useIdle();
    remaining.push(idle.remaining);
    return <p>{idle.status}</p>;
  }
  const page = (
    <StrictMode>
      <MockAuthProvider user={createTestUser()} idleWarning={30_000}>
        <Countdown />
        <IdleWarning />
      </MockAuthProvider>
    </StrictMode>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  expect(container.innerHTML).toBe('<p>warning</p>');
  expect(remaining).toEqual([Infinity]);

  remaining.length = 0;
  const errors = vi.spyOn(console, 'error');
  const root = await act(async () => hydrateRoot(container, page));
  expect(remaining[0]).toBe(Infinity);
  expect(remaining.at(-1)).toBeGreaterThan(25_000);
  expect(remaining.at(-1)).toBeLessThan(31_000);
  expect(container.querySelector('[role="alertdialog"]')?.textContent).toMatch(/0:(29|30)/);
  expect(errors).not.toHaveBeenCalled();
  act(() => root.unmount());
});
