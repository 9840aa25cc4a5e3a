import { showValue } from './configInvalid';
import type { RoleReader } from './roles';

const warned = /* @__PURE__ */ new WeakSet<RoleReader>();

/**
 * Development builds only (called behind a `NODE_ENV` check): the configured `roles` reader threw
 * or gave something other than a list, so the user has no roles and every role check denies,
 * which looks like a user without access rather than a mistake. Once per reader.
 */
export function warnRoleReader(
  reader: RoleReader,
  result: { threw: unknown } | { gave: unknown },
): void {
  if (warned.has(reader)) return;
  warned.add(reader);
  const what =
    'threw' in result
      ? `threw (${String(result.threw)})`
      : // Not JSON: it would print the tokens of a user given back, and throws on a cycle.
        `gave ${showValue(result.gave)}, not a list`;
  console.warn(
    `oidc-kit: the \`roles\` reader ${what}, so this user has no roles and every role check denies access. A reader takes the user and returns a string[] (an empty one when the claim is missing), e.g. roles: roleReaders.claim('groups').`,
  );
}
