import { describe, expect, test } from 'vitest';
import { safeReturnTo } from './returnTo';

const origin = 'https://app.example.com';

describe('safeReturnTo keeps same-origin paths', () => {
  test.each([
    ['/', '/'],
    ['/dashboard', '/dashboard'],
    ['/orders?id=7&tab=items#top', '/orders?id=7&tab=items#top'],
    ['/search?q=%2F%2Fnot-a-host', '/search?q=%2F%2Fnot-a-host'],
    ['/caf%C3%A9', '/caf%C3%A9'],
    ['/a/../b', '/b'],
    ['/path with space', '/path%20with%20space'],
    // Only the path decides the host: a query or hash may hold anything, encoded or not.
    ['/search?q=50%25', '/search?q=50%25'],
    ['/search?q=C%3A%5CUsers', '/search?q=C%3A%5CUsers'],
    ['/search?q=C:\\Users', '/search?q=C:\\Users'],
    ['/notes?text=a%0Ab', '/notes?text=a%0Ab'],
    ['/orders#50%25', '/orders#50%25'],
    ['/search?q=//evil.example', '/search?q=//evil.example'],
    ['/a?b#c?d\\e', '/a?b#c?d\\e'],
  ])('%s', (input, expected) => {
    expect(safeReturnTo(input, origin)).toBe(expected);
  });
});

describe('safeReturnTo refuses anything that can leave the origin', () => {
  test.each([
    '//evil.example',
    '//evil.example/path',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    'https://evil.example',
    'http://evil.example/dashboard',
    'HTTPS://evil.example',
    'https://app.example.com/dashboard',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '%2F%2Fevil.example',
    '/%2F%2Fevil.example',
    '/%2f%2fevil.example',
    '/%252F%252Fevil.example',
    '/%5Cevil.example',
    '/%5cevil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/\u0000/evil.example',
    '/%09/evil.example',
    '/%0a/evil.example',
    'evil.example',
    'dashboard',
    '@evil.example',
    '//app.example.com@evil.example',
    'https://app.example.com@evil.example/',
    'https://user:pass@app.example.com/',
    '/%E0%A4%A',
    '/.//evil.example',
    '/..//evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/./\\evil.example',
    // Encoded dot segments that a second decoding turns into "/..//evil.example", i.e. "//evil.example".
    '/%2e%2e%2f%2fevil.example',
    '/%252e%252e//evil.example',
    '/%252E%252E%252F%252Fevil.example',
    '',
    '/' + 'a'.repeat(5000),
  ])('%j', (input) => {
    expect(safeReturnTo(input, origin)).toBe('/');
  });

  test.each([undefined, null, 42, {}, ['/dashboard']])('a non-string %j', (input) => {
    expect(safeReturnTo(input, origin)).toBe('/');
  });

  test('an origin that is none (a sandboxed frame, "null") gives the fallback', () => {
    expect(safeReturnTo('/dashboard', 'null')).toBe('/');
  });

  test('returns the given fallback instead of /', () => {
    expect(safeReturnTo('//evil.example', origin, '/home')).toBe('/home');
  });
});
