import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The nonces this API hands out for DPoP proofs (RFC 9449 §9): a proof with one of them is fresh
 * because the nonce is, whatever the client's clock says, so a browser whose clock is minutes off
 * still gets through (after one `use_dpop_nonce` round trip). A nonce is the time it was issued
 * and an HMAC of it: nothing to store. Instances of one API behind a load balancer must share
 * `secret` (and their clocks).
 */
export class DPoPNonces {
  constructor(
    /** How long a nonce is good for, in milliseconds. Default five minutes. */
    readonly lifetime = 5 * 60_000,
    private readonly now: () => number = Date.now,
    private readonly secret: Uint8Array = randomBytes(32),
  ) {}

  /** A new nonce, for the `DPoP-Nonce` header. */
  issue(): string {
    const issued = String(this.now());
    return `${issued}.${this.mac(issued)}`;
  }

  /**
   * When `nonce` was issued (ms), if this API issued it and it is still good; else null. A nonce up
   * to 5 s in this instance's future is taken, for instances whose clocks differ a little.
   */
  issuedAt(nonce: string): number | null {
    const [issued = '', mac = ''] = nonce.split('.');
    const expected = Buffer.from(this.mac(issued));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const at = Number(issued);
    const age = this.now() - at;
    return Number.isSafeInteger(at) && age >= -5_000 && age <= this.lifetime ? at : null;
  }

  private mac(value: string): string {
    return createHmac('sha256', this.secret).update(value).digest('base64url');
  }
}
