import { Bench } from 'tinybench';

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** What one run of a scenario counted: named counts (numbers) and yes/no findings. */
export type Counts = Record<string, number | boolean>;

/** Every run's counts of one scenario, their medians, and the time one run took. */
export interface ScenarioResult {
  name: string;
  runs: Counts[];
  /** Per count: the median over the runs (booleans: true when most runs said true). */
  median: Counts;
  /** Median wall time of one run, milliseconds (tinybench's latency p50). */
  runMs: number;
}

function summarise(runs: Counts[]): Counts {
  const keys = Object.keys(runs[0] ?? {});
  const result: Counts = {};
  for (const key of keys) {
    const values = runs.map((run) => run[key]);
    if (values.every((value) => typeof value === 'boolean')) {
      result[key] = values.filter(Boolean).length * 2 > values.length;
    } else {
      result[key] = median(values.map(Number));
    }
  }
  return result;
}

/**
 * Runs each scenario `iterations` times with tinybench (no warmup: every run starts from a fresh
 * provider and fresh clients, so the first run counts as much as the others) and collects the
 * counts each run returns.
 */
export async function runScenarios(
  scenarios: Record<string, () => Promise<Counts>>,
  iterations: number,
): Promise<Record<string, ScenarioResult>> {
  const bench = new Bench({ iterations, time: 0, warmup: false, throws: true });
  const runs: Record<string, Counts[]> = {};
  for (const [name, scenario] of Object.entries(scenarios)) {
    runs[name] = [];
    bench.add(name, async () => {
      runs[name]?.push(await scenario());
    });
  }
  await bench.run();
  const results: Record<string, ScenarioResult> = {};
  for (const task of bench.tasks) {
    const result = task.result;
    const taskRuns = runs[task.name] ?? [];
    if (taskRuns.length !== iterations) {
      throw new Error(`${task.name}: ${taskRuns.length} runs instead of ${iterations}`);
    }
    results[task.name] = {
      name: task.name,
      runs: taskRuns,
      median: summarise(taskRuns),
      runMs: 'latency' in result ? (result.latency.p50 ?? Number.NaN) : Number.NaN,
    };
  }
  return results;
}
