// The one way tests wait for something another party brings about (a timer in a simulator, another process, a
// background job): ask again until the answer is accepted. The deadline only turns a hang into a readable failure;
// no test asserts on how long the wait took.

export interface PollOptions {
  /** Give up after this long (default 20 s: a loaded two-core machine can be slow, a hang should still fail). */
  timeoutMs?: number;
  /** Pause between attempts (default 25 ms). */
  intervalMs?: number;
  /** Extra detail for the failure message, computed only on failure. */
  why?: () => Promise<string> | string;
}

/** Calls `read` until `accept` takes its value, and returns that value. */
export async function poll<T>(
  read: () => Promise<T> | T,
  accept: (value: T) => boolean,
  opts: PollOptions = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) {
      const detail = opts.why ? await opts.why() : `last value: ${JSON.stringify(value)}`;
      throw new Error(`condition not reached in ${timeoutMs} ms; ${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs ?? 25));
  }
}

/** poll() for a yes/no condition. */
export async function until(condition: () => Promise<boolean> | boolean, opts: PollOptions = {}): Promise<void> {
  await poll(condition, (ok) => ok, opts);
}
