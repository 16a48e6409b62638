/**
 * The parts of hono the Worker bundle leaves out (wrangler.toml [alias], by the relative paths
 * hono's own modules import them with; docs/performance.md "The Worker bundle"): cookie reading,
 * which hono's validator keeps for a `cookie` target no route declares, and `app.mount()` of
 * another framework's handler, which the service never does. Either would throw.
 */
const absent = (): never => {
  throw new Error("not in the Worker bundle (src/lib/http/hono-unused.ts)");
};

export const getCookie = absent;
export const createMountedRequest = absent;
