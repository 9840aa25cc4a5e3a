import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackHostHeader } from './isLoopbackHost.js';

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

describe('isLoopbackHostHeader', () => {
  it.each([
    undefined,
    'localhost:4000',
    'LOCALHOST:4000',
    'localhost',
    '127.0.0.1:4000',
    '127.8.9.10',
    '[::1]:4000',
    'app.localhost:4000',
  ])('%o names this machine', (header) => {
    expect(isLoopbackHostHeader(header)).toBe(true);
  });

  it.each([
    'attacker.example',
    'attacker.example:4000',
    'localhost.attacker.example',
    '127.0.0.1.nip.io',
    '192.168.1.20:4000',
    '',
    'localhost:4000/path',
    'a b',
  ])('%o does not', (header) => {
    expect(isLoopbackHostHeader(header)).toBe(false);
  });
});
