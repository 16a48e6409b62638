/*
 * Long work in steps (docs/api/change-requests.md §17.7, docs/simulation.md §8): the Worker's
 * isolate answers other requests on the same thread, so work of seconds is a generator that pauses
 * between steps of some milliseconds, and the caller waits a turn of the event loop before each.
 */

/** Lets the isolate's other requests run: a timer is a macrotask, so their pending I/O goes first. */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Runs `steps` to its end, a turn of the event loop before each step. */
export async function runInSteps<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    await nextTurn();
    const step = steps.next();
    if (step.done) return step.value;
  }
}
