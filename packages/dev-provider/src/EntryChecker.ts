import { DevProviderConfigError, type ConfigErrorLocation } from './DevProviderConfigError.js';

/** Where a list of entries came from, for error messages, e.g. `{ kind: 'users file', source: '/abs/users.json' }`. */
export interface ListSource {
  /** `users file`, `clients file` or `option`. */
  kind: string;
  /** Absolute file path, or the option name. */
  source: string;
}

/** Shared checks for the users and clients lists: each throws a config error naming the field. */
export class EntryChecker {
  constructor(
    private readonly location: ConfigErrorLocation,
    private readonly value: Record<string, unknown>,
  ) {}

  fail(field: string | undefined, problem: string): never {
    throw new DevProviderConfigError({ ...this.location, field }, problem);
  }

  onlyFields(known: readonly string[]): void {
    for (const field of Object.keys(this.value)) {
      if (!known.includes(field)) {
        this.fail(field, `is not a known field. Known fields: ${known.join(', ')}.`);
      }
    }
  }

  requiredString(field: string, example: string): string {
    const value = this.value[field];
    if (value === undefined) this.fail(field, `is missing. Add it, e.g. "${field}": ${example}.`);
    return this.string(field, example) as string;
  }

  string(field: string, example: string): string | undefined {
    const value = this.value[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') {
      this.fail(field, `must be a non-empty string, e.g. "${field}": ${example}.`);
    }
    return value;
  }

  boolean(field: string): boolean | undefined {
    const value = this.value[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') this.fail(field, `must be true or false.`);
    return value;
  }

  stringArray(field: string, example: string, { nonEmpty = false } = {}): string[] | undefined {
    const value = this.value[field];
    if (value === undefined) return undefined;
    if (
      !Array.isArray(value) ||
      (nonEmpty && value.length === 0) ||
      value.some((item) => typeof item !== 'string' || item.trim() === '')
    ) {
      this.fail(
        field,
        `must be ${nonEmpty ? 'a non-empty' : 'an'} array of non-empty strings, e.g. "${field}": ${example}.`,
      );
    }
    return [...(value as string[])];
  }
}

/** Checks that a parsed file is an array of objects and yields a checker for each entry. */
export function eachEntry(
  value: unknown,
  list: ListSource,
  nameField: string,
  example: string,
): Array<{ check: EntryChecker; index: number }> {
  if (!Array.isArray(value) || value.length === 0) {
    throw new DevProviderConfigError(
      list,
      `must be a non-empty JSON array of entries, e.g. [${example}].`,
    );
  }
  return value.map((item: unknown, index) => {
    const name =
      item !== null && typeof item === 'object' && !Array.isArray(item)
        ? (item as Record<string, unknown>)[nameField]
        : undefined;
    const location: ConfigErrorLocation = {
      ...list,
      index,
      ...(typeof name === 'string' ? { entry: name } : {}),
    };
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new DevProviderConfigError(location, `must be an object, e.g. ${example}.`);
    }
    return { check: new EntryChecker(location, item as Record<string, unknown>), index };
  });
}
