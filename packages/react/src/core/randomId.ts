/** 128 fresh random bits, hex-encoded: a nonce for an authorization request, a tab's or a session's id. */
export function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
