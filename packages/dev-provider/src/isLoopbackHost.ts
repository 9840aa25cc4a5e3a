import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * Whether listening on `host` keeps the provider on this machine: `localhost`, 127.0.0.0/8 or
 * `::1` (also bracketed, or IPv4-mapped). Any other name may resolve to a reachable address, so it
 * counts as not loopback; so does `''`, which listens on every interface.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost') return true;
  const address = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  const family = isIP(address);
  if (family === 0) return false;
  // BlockList matches an IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 subnet.
  return loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether a request's `Host` header names this machine: a loopback host, or a `*.localhost` name
 * (browsers resolve those to loopback). A page on another site that pointed its own name at
 * 127.0.0.1 (DNS rebinding) still sends that name. No header (HTTP/1.0) passes: browsers send one.
 */
export function isLoopbackHostHeader(header: string | undefined): boolean {
  if (header === undefined) return true;
  // A name or a bracketed IPv6 address, then maybe a port: nothing else.
  const hostname = /^(\[[\da-f:.]+\]|[^\s:/?#[\]@]+)(?::\d+)?$/i.exec(header)?.[1];
  if (hostname === undefined) return false;
  return hostname.toLowerCase().endsWith('.localhost') || isLoopbackHost(hostname);
}
