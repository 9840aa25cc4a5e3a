import type { UserManager } from 'oidc-client-ts';
import { tokenServices } from './tokenServices';

interface Posting {
  postForm(url: string, args: unknown): Promise<unknown>;
}

const reading = new WeakSet<UserManager>();

/**
 * Makes `manager` read its token responses without their `null` and `""` fields: providers whose
 * serialisers write every field give one they leave out so (RFC 6749 §5.1 has no such values).
 * oidc-client-ts would take an `expires_in` of null for 0 (a renewal every 10 s, not an unknown
 * expiry), and a `refresh_token` of null for one to send (none exists: renewal fails), or for the
 * one that replaces the token sent (RFC 6749 §6: with none issued, the one sent stays).
 */
export function dropEmptyTokenFields(manager: UserManager): UserManager {
  if (reading.has(manager)) return manager;
  reading.add(manager);
  for (const service of tokenServices<Posting>(manager)) {
    // Another oidc-client-ts than 3.5 reads its answers as they are.
    if (typeof service?.postForm !== 'function') continue;
    const postForm = service.postForm.bind(service);
    service.postForm = async (url, args) => {
      const answer = (await postForm(url, args)) as Record<string, unknown>;
      for (const field in answer) {
        if (answer[field] === null || answer[field] === '') delete answer[field];
      }
      return answer;
    };
  }
  return manager;
}
