/**
 * The demo's change requests (docs/api/change-requests.md §17, docs/operations.md "Local
 * development"): a price increase approved by a second key and one still waiting for approval, both
 * for the first day of next month, so the back office's Changes page shows something. Change
 * requests carry their impact, computed by the service's own simulation at submit, so they are made
 * through the API on the demo data (by `npm run dev` once the server is up; by
 * test/tools/demo-data.test.ts), not written as SQL.
 */

/** WEB-DE's primary pricelist in the demo data (the worked example's PL-100). */
const WEB_LIST = 100;

/**
 * The first instant of the month after `now`, UTC.
 * @param {number} now epoch ms
 */
export const nextMonth = (now) => {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
};

/**
 * The two requests' bodies, effective the first day of the month after `now`.
 * @param {number} now epoch ms
 */
export function demoChangeRequests(now) {
  const effective = nextMonth(now);
  const month = new Date(effective).toLocaleString("en", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  const increase = (/** @type {string} */ group, /** @type {number} */ adjustmentBp) => ({
    kind: "ADJUST_PRICES",
    pricelistId: WEB_LIST,
    productGroupCodes: [group],
    adjustmentBp,
    rounding: { mode: "UP", step: 10, ending: 9 },
  });
  return {
    approved: {
      title: `Power tools +3 % from ${month}`,
      effectiveAt: new Date(effective).toISOString(),
      items: [increase("POWER-TOOLS", 300)],
    },
    pending: {
      title: `Batteries and chargers +5 % from ${month}`,
      effectiveAt: new Date(effective).toISOString(),
      items: [increase("BATTERIES", 500)],
    },
  };
}

/**
 * @typedef {(method: string, path: string, body: unknown, key: string) =>
 *   Promise<{ status: number, body: any }>} Call
 */

/**
 * Makes the two requests through the API: both created and submitted by `author`, the first
 * approved by `approver` (another admin key). Returns their ids; throws on an unexpected answer.
 * @param {Call} call
 * @param {{ author: string, approver: string }} keys
 * @param {number} now epoch ms
 */
export async function addDemoChangeRequests(call, keys, now) {
  const bodies = demoChangeRequests(now);
  /**
   * @param {string} method
   * @param {string} path
   * @param {string} key
   * @param {unknown} [body]
   */
  const ok = async (method, path, key, body) => {
    const res = await call(method, `/v1/api/change-requests${path}`, body, key);
    if (res.status >= 300) {
      throw new Error(`${method} ${path || "/"}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body;
  };
  const approved = await ok("POST", "", keys.author, bodies.approved);
  await ok("POST", `/${approved.id}/submit`, keys.author);
  const applied = await ok("POST", `/${approved.id}/approve`, keys.approver);
  const pending = await ok("POST", "", keys.author, bodies.pending);
  const waiting = await ok("POST", `/${pending.id}/submit`, keys.author);
  return { approved: applied, pending: waiting };
}
