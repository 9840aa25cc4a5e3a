import { describe, expect, test } from 'vitest';
import { maxRetryAfter, retryAfter } from './retryAfter';

const now = Date.parse('2026-11-26T12:00:00Z');

function answer(status: number, value?: string): Response {
  return new Response(null, {
    status,
    headers: value === undefined ? {} : { 'Retry-After': value },
  });
}

describe('retryAfter', () => {
  test.each([
    ['seconds', '30', 30_000],
    ['seconds with spaces around', ' 45 ', 45_000],
    ['no wait', '0', 0],
    ['an IMF-fixdate', 'Thu, 26 Nov 2026 12:01:30 GMT', 90_000],
    ['an obsolete RFC 850 date', 'Thursday, 26-Nov-26 12:01:30 GMT', 90_000],
    ['an obsolete asctime date (GMT, though it names no zone)', 'Thu Nov 26 12:01:30 2026', 90_000],
    ['a date past', 'Thu, 26 Nov 2026 11:59:00 GMT', 0],
  ])('a 429 with %s', (_, value, wait) => {
    expect(retryAfter(answer(429, value), now)).toBe(wait);
  });

  test('a 503 asks the same; other statuses ask nothing, whatever their header says', () => {
    expect(retryAfter(answer(503, '30'), now)).toBe(30_000);
    for (const status of [200, 400, 401, 500, 502]) {
      expect(retryAfter(answer(status, '30'), now)).toBe(0);
    }
    expect(retryAfter(answer(429), now)).toBe(0);
  });

  test.each([
    ['words', 'soon'],
    ['a unit', '30s'],
    ['a negative number', '-5'],
    ['a fraction', '1.5'],
    ['an empty value', ''],
    // `Date.parse` alone takes these for dates years ahead.
    ['a year', 'in 2099'],
    ['a date without its time', 'Thu, 26 Nov 2099'],
    ['a day that does not exist', 'Thu, 32 Nov 2099 12:00:00 GMT'],
    ['another zone', 'Thu, 26 Nov 2099 12:00:00 PST'],
  ])('a malformed value (%s) is ignored', (_, value) => {
    expect(retryAfter(answer(429, value), now)).toBe(0);
  });

  test.each([
    ['seconds', '86400'],
    ['more seconds than a number holds exactly', '99999999999999999999999'],
    ['a date far ahead', 'Sun, 06 Nov 2094 08:49:37 GMT'],
  ])('a huge wait (%s) is capped', (_, value) => {
    expect(retryAfter(answer(429, value), now)).toBe(maxRetryAfter);
  });
});
