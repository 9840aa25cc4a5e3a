/** Where a configuration problem is: the file (or option) and, when known, the entry and field. */
export interface ConfigErrorLocation {
  /** Absolute path of the file, the option name (e.g. `options.users`, `--port`) or the variable. */
  source: string;
  /**
   * Kind of source, used in the message: `users file`, `clients file`, `keys file`, `option`,
   * `variable` (of the environment).
   */
  kind: string;
  /** 0-based position of the entry in the file's array. */
  index?: number;
  /** Human name of the entry, e.g. its `username` or `client_id`. */
  entry?: string;
  /** The field that is wrong, e.g. `roles`. */
  field?: string;
}

/**
 * A users, clients or keys file (or an option) that the dev provider cannot use. The message names
 * the file, the entry and the field, and says how to fix it.
 */
export class DevProviderConfigError extends Error {
  override readonly name = 'DevProviderConfigError';
  readonly source: string;
  readonly index: number | undefined;
  readonly entry: string | undefined;
  readonly field: string | undefined;

  constructor(location: ConfigErrorLocation, problem: string) {
    const pinpointed = location.index !== undefined || location.field !== undefined;
    super(`oidc-kit-dev-provider: ${describe(location)}${pinpointed ? ':' : ''} ${problem}`);
    this.source = location.source;
    this.index = location.index;
    this.entry = location.entry;
    this.field = location.field;
  }
}

function describe({ source, kind, index, entry, field }: ConfigErrorLocation): string {
  let where = `${kind} ${source}`;
  if (index !== undefined) {
    where += `, entry ${index + 1}`;
    if (entry !== undefined) where += ` (${JSON.stringify(entry)})`;
  }
  if (field !== undefined) where += `, field "${field}"`;
  return where;
}
