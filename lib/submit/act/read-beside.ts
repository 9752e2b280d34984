// A read that need not wait for a check (the CLI's server-version check, which must pass before
// anything is written) but whose answer counts only once the check has passed. Both go out at once:
// on a remote cluster each sequential request costs a whole network round trip.

/** Runs `read` while `gate` settles; the gate's rejection wins over the read's outcome. */
export async function readBeside<T>(gate: Promise<unknown> | undefined, read: () => Promise<T>): Promise<T> {
  const [checked, result] = await Promise.allSettled([gate, read()]);
  if (checked.status === 'rejected') throw checked.reason;
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
