/** Provider answers that mean the session is over (no renewal can follow). */
export const sessionOverErrors: ReadonlySet<string> = new Set([
  'invalid_grant',
  'login_required',
  'interaction_required',
  'consent_required',
  'account_selection_required',
]);
