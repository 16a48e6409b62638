/**
 * Clean-up for a bench that starts servers, load runs and temporary folders (`npm run bench`,
 * `npm run bench:quotes-ab`): each resource registers how to release it (`cleanups.push`), and a
 * load run sits in `loads` while it runs. `cleanup()` stops the loads, then releases every
 * resource once, the last registered first, logging what fails instead of throwing; Ctrl-C
 * (SIGINT, SIGTERM) runs it and exits with 130. No workerd, peer or copy of the data is left
 * behind.
 */

/**
 * @param {(text: string) => void} log
 * @param {string} what what Ctrl-C stops, for its message ("the servers")
 */
export function cleanupRegistry(log, what) {
  /** @type {(() => unknown)[]} */
  const cleanups = [];
  /** @type {Set<import("autocannon").Instance>} */
  const loads = new Set();
  /** @type {Promise<void> | undefined} */
  let cleaning;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const run of loads) run.stop();
      while (cleanups.length > 0) {
        const release = /** @type {() => unknown} */ (cleanups.pop());
        try {
          await release();
        } catch (error) {
          log(`clean-up: ${error instanceof Error ? error.message : error}`);
        }
      }
    })());
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
    process.once(signal, () => {
      log(`\n${signal}: stopping ${what} …`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  return { cleanups, loads, cleanup };
}
