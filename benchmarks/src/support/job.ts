import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outDir } from './paths';

/** Runs one measurement in this process and leaves its result as JSON for the table. */
export async function job<T>(name: string, measure: () => Promise<T>): Promise<void> {
  try {
    const result = await measure();
    writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    // Providers, channels and oidc-client-ts timers would keep the process alive.
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
