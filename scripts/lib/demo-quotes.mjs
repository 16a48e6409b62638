/**
 * Worked example F of docs/pricing-rules.md §27 (a negotiated price), made through the API from
 * its data in scripts/lib/worked-examples.mjs (the records, the quote policy, the prices its
 * revisions quote and what the engine makes of them). test/quotes/*.test.ts build it in their own
 * D1 and check every number; `npm run dev` builds it beside the demo data (with codes of its own,
 * the demo has a P-B already) and adds quotes in several states (docs/operations.md "Local
 * development"). Quotes are priced by the service at create and submit, so all of it is made
 * through the API, not written as SQL.
 */
import { WORKED_EXAMPLE_F as EXAMPLE_F } from "./worked-examples.mjs";

/**
 * @typedef {(method: string, path: string, body: unknown, key: string) =>
 *   Promise<{ status: number, body: any }>} Call
 */

/**
 * One call that must succeed; its body.
 * @param {Call} call @param {string} key @param {string} method @param {string} path @param {unknown} body
 */
async function ok(call, key, method, path, body) {
  const res = await call(method, path, body, key);
  if (res.status >= 300) {
    throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

/**
 * Example F's records and policy, made with an admin key: the channel (EUR), the customer in it,
 * the product, PL-1 as its primary list, a COST and a FLOOR list assigned to it.
 * @param {Call} call
 * @param {string} adminKey
 * @param {{ channel: string, customer: string, product: string }} [codes]
 * @param {string} [label] added to the records' names
 */
export async function seedExampleF(call, adminKey, codes = EXAMPLE_F.codes, label = "example F") {
  const post = (/** @type {string} */ path, /** @type {unknown} */ body) =>
    ok(call, adminKey, "POST", path, body);
  await post("/v1/api/channel", { code: codes.channel, name: `Web (${label})` });
  await post("/v1/api/product", { code: codes.product, name: `Pallet jack (${label})` });
  await post("/v1/api/customer", {
    code: codes.customer,
    name: `Contract buyer (${label})`,
    channelCodes: [codes.channel],
  });
  const list = async (/** @type {string} */ name, /** @type {string} */ kind, amount = 0) => {
    const pricelist = await post("/v1/api/pricelist", {
      name: `${name} (${label})`,
      currency: "EUR",
      kind,
      status: "ACTIVE",
    });
    await ok(call, adminKey, "PUT", `/v1/api/pricelist/${pricelist.id}/prices`, {
      prices: [{ productCode: codes.product, amount }],
    });
    return /** @type {number} */ (pricelist.id);
  };
  const sales = await list("PL-1", "SALES", EXAMPLE_F.prices.sales);
  await ok(call, adminKey, "PUT", `/v1/api/channel/${codes.channel}/pricelist/primary`, {
    pricelistId: sales,
  });
  const assigned = async (/** @type {string} */ kind, /** @type {number} */ amount) => {
    const id = await list(kind, kind, amount);
    await post(`/v1/api/channel/${codes.channel}/pricelist`, { pricelistId: id });
    return id;
  };
  const cost = await assigned("COST", EXAMPLE_F.prices.cost);
  const floor = await assigned("FLOOR", EXAMPLE_F.prices.floor);
  await ok(call, adminKey, "PUT", "/v1/api/quotes/policy", EXAMPLE_F.policy);
  return { sales, cost, floor };
}

/** The demo's codes for example F: the demo data has a P-B and a WEB-DE of its own. */
export const DEMO_QUOTE_CODES = { channel: "WEB-Q", customer: "K-1", product: "P-QB" };

/**
 * The demo's quotes, on example F's records (made first, `DEMO_QUOTE_CODES`): one waiting for the
 * manager's approval, one approved and sent, one renegotiating after the buyer declined, one
 * AGREEMENT accepted, one draft. `keys`: an admin, a read key (the buyer's answers), the rep
 * (owner `rep-1`) and the manager (owner `manager`), as example F's policy names them.
 * @param {Call} call
 * @param {{ admin: string, read: string, rep: string, manager: string }} keys
 * @param {number} now epoch ms
 */
export async function addDemoQuotes(call, keys, now) {
  const codes = DEMO_QUOTE_CODES;
  await seedExampleF(call, keys.admin, codes, "demo quotes");
  const validTo = new Date(now + 60 * 86_400_000).toISOString();
  /** @param {number} unitAmount @param {"ONCE" | "AGREEMENT"} mode */
  const create = async (unitAmount, mode = "ONCE") => {
    const quote = await ok(call, keys.rep, "POST", "/v1/api/quotes", {
      customerCode: codes.customer,
      channelCode: codes.channel,
      validTo,
      mode,
      lines: [{ productCode: codes.product, quantity: EXAMPLE_F.quantity, unitAmount }],
    });
    return /** @type {number} */ (quote.id);
  };
  /** @param {number} id @param {string} action @param {string} key @param {unknown} [body] */
  const act = (id, action, key, body) =>
    ok(call, key, "POST", `/v1/api/quotes/${id}/${action}`, body);
  /** @param {number} id */
  const sent = async (id) => {
    await act(id, "submit", keys.rep);
    await act(id, "approve", keys.manager);
    return act(id, "send", keys.rep);
  };
  const { first, envelope, director } = EXAMPLE_F.quoted;
  const pending = await create(first.unitAmount);
  await act(pending, "submit", keys.rep);
  const sentQuote = await sent(await create(first.unitAmount));
  const renegotiating = await create(first.unitAmount);
  await sent(renegotiating);
  await act(renegotiating, "decline", keys.read, { reason: "too expensive", renegotiate: true });
  const agreement = await create(envelope.unitAmount, "AGREEMENT");
  await sent(agreement);
  await act(agreement, "accept", keys.read);
  const draft = await create(director.unitAmount);
  return {
    pending,
    sent: /** @type {number} */ (sentQuote.id),
    renegotiating,
    agreement,
    draft,
  };
}
