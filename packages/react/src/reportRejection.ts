/**
 * Settles an auth action that nobody awaits (started by a click or an effect). The built-in client
 * reports failures in its state; a custom client may reject instead, which must not be left
 * unhandled: the error goes to the console in development, and production stays silent.
 */
export function reportRejection(action: Promise<unknown>): Promise<void> {
  return action.then(
    () => undefined,
    (error: unknown) => {
      if (process.env.NODE_ENV !== 'production') console.error(error);
    },
  );
}
