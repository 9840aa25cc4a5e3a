import type { UserManager } from 'oidc-client-ts';
import { tokenServices } from './tokenServices';

interface Posting {
  postForm(url: string, args: unknown): Promise<unknown>;
}

const reading = new WeakSet<UserManager>();

// RFC 6749 §5.1 and OpenID Connect Core 3.1.3.3: strings, when given (the ID token has its own check).
const stringFields = ['access_token', 'token_type', 'refresh_token', 'scope'];

/** A token answer refused: the operation that sent the request reports it (`toAuthError`). */
function refused(detail: string): Error {
  return new Error(
    process.env.NODE_ENV !== 'production' ? `The token response ${detail}.` : 'token response',
  );
}

/**
 * Makes `manager` read its token responses without their `null` and `""` fields: providers whose
 * serialisers write every field give one they leave out so (RFC 6749 §5.1 has no such values).
 * oidc-client-ts would take an `expires_in` of null for 0 (a renewal every 10 s, not an unknown
 * expiry), and a `refresh_token` of null for one to send (none exists: renewal fails), or for the
 * one that replaces the token sent (RFC 6749 §6: with none issued, the one sent stays). An answer
 * that is no JSON object, or whose token, type or scope is no string, is refused as a failed token
 * request: oidc-client-ts would store a number for a token, or fail on it as if offline.
 */
export function dropEmptyTokenFields(manager: UserManager): UserManager {
  if (reading.has(manager)) return manager;
  reading.add(manager);
  for (const service of tokenServices<Posting>(manager)) {
    // Another oidc-client-ts than 3.5 reads its answers as they are.
    if (typeof service?.postForm !== 'function') continue;
    const postForm = service.postForm.bind(service);
    service.postForm = async (url, args) => {
      const answer = (await postForm(url, args)) as Record<string, unknown> | null;
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
        throw refused('is not a JSON object');
      }
      for (const field in answer) {
        if (answer[field] === null || answer[field] === '') delete answer[field];
      }
      const wrong = stringFields.find(
        (field) => answer[field] !== undefined && typeof answer[field] !== 'string',
      );
      if (wrong !== undefined) throw refused(`has a \`${wrong}\` that is not a string`);
      return answer;
    };
  }
  return manager;
}
