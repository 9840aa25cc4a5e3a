/** `work`'s result, or `signal`'s abort as soon as it comes (the work goes on for other callers). */
export function unlessAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    // An AbortError unless the caller gave a reason (every ES2022 browser sets `reason`).
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    // Not removed once settled (bytes up front): it then only rejects a settled promise.
    else signal.addEventListener('abort', abort);
    work.then(resolve, reject);
  });
}
