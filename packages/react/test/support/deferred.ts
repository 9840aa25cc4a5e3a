/** A promise settled from outside: a test holds an operation at one step, then lets it go on. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

export type Deferred<T = void> = ReturnType<typeof deferred<T>>;
