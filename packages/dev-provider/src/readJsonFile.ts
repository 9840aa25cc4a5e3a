import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DevProviderConfigError } from './DevProviderConfigError.js';

/** Reads and parses a JSON file, turning a missing file or bad JSON into a config error. */
export async function readJsonFile(path: string, kind: string): Promise<unknown> {
  const source = resolve(path);
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new DevProviderConfigError(
      { kind, source },
      `cannot be read (${code}). Check the path you gave.`,
    );
  }
  try {
    // A UTF-8 byte order mark (Windows editors, PowerShell) is allowed by RFC 8259 §8.1.
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new DevProviderConfigError(
      { kind, source },
      `is not valid JSON (${(error as Error).message}). Fix the syntax.`,
    );
  }
}
