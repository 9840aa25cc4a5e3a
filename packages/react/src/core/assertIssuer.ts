import { discoveryError } from './discoveryError';
import { authError } from './errors';
import type { SessionCore } from './SessionCore';

/**
 * The discovered issuer, which must be `authority` (design: Security defaults); a failed discovery
 * names the URL tried (its endpoints, `checkEndpoints`). Checked at start, before a sign-in, and on
 * the callback.
 */
export async function assertIssuer(core: SessionCore): Promise<string> {
  const { metadataService, settings } = core.manager;
  let issuer: string;
  try {
    issuer = await metadataService.getIssuer();
  } catch (cause) {
    throw discoveryError(cause, settings.metadataUrl) ?? cause;
  }
  if (issuer !== core.authConfig.oidc.authority) {
    throw authError(
      'config_invalid',
      process.env.NODE_ENV !== 'production' && [
        `oidc-kit config: \`authority\` must be exactly the issuer the provider announces: ${JSON.stringify(issuer)} (got ${JSON.stringify(core.authConfig.oidc.authority)}).`,
        'Nothing was sent to the identity provider.',
      ],
      { field: 'authority' },
    );
  }
  return issuer;
}
