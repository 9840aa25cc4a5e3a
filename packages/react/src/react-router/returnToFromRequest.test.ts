import { expect, test } from 'vitest';
import { returnToFromRequest } from './returnToFromRequest';

test('returns the path, query and hash of the requested URL', () => {
  const request = new Request('https://app.example.com/orders/7?tab=items#notes');
  expect(returnToFromRequest(request)).toBe('/orders/7?tab=items#notes');
});

test('falls back to / for a path that would read as another host', () => {
  expect(returnToFromRequest(new Request('https://app.example.com//evil.example/x'))).toBe('/');
  expect(returnToFromRequest(new Request('https://app.example.com/%2F%2Fevil.example'))).toBe('/');
});

test("takes the page's hash only for the URL the page is on (React Router drops it from requests)", () => {
  history.replaceState(null, '', '/orders/7?tab=items#notes');
  expect(returnToFromRequest(new Request(`${location.origin}/orders/7?tab=items`))).toBe(
    '/orders/7?tab=items#notes',
  );
  expect(returnToFromRequest(new Request(`${location.origin}/orders/7`))).toBe('/orders/7');
  expect(returnToFromRequest(new Request(`${location.origin}/orders/8?tab=items`))).toBe(
    '/orders/8?tab=items',
  );
});
