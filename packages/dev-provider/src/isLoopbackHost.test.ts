import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './isLoopbackHost.js';

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'LocalHost',
    '127.0.0.1',
    '127.0.1.1',
    '127.255.255.254',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '0.0.0.0',
    '::',
    '[::]',
    '',
    '192.168.1.20',
    '10.0.0.1',
    '128.0.0.1',
    '::ffff:192.168.1.20',
    'fe80::1',
    'my-laptop.local',
    'localhost.example.com',
    '127.0.0.1.nip.io',
  ])('%o is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
