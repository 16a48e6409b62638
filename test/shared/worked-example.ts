import {
  WORKED_EXAMPLE_A,
  WORKED_EXAMPLE_E,
  type ExampleRow,
} from "../../scripts/lib/worked-examples.mjs";
import {
  assignPricelistToChannel,
  createIndividualPricelist,
  createPricelist,
  createPromotion,
  createTradeCondition,
} from "../factories";
import { api, created } from "./helpers";

/**
 * The worked example of docs/pricing-rules.md §10, built through the API as a user would (in a
 * test file's own fresh D1, with the example's codes: channel WEB-DE, customer C-1001 in
 * WHOLESALE and NORTH, products P-A, P-B, P-C). PL-900 stays DRAFT; the tests activate it. Ids
 * differ from the example's names (PL-900 …), so they are returned by name. `validTo` moves the
 * end of the example's window (2026-01-01) for a test that needs its data to price after it. The
 * data is scripts/lib/worked-examples.mjs, which the engine tests and the demo data read too.
 */

const EXAMPLE = WORKED_EXAMPLE_A;
/** The example's window as the API takes dates. */
const day = (iso: string) => iso.slice(0, 10);
const WINDOW = { validFrom: day(EXAMPLE.window.validFrom), validTo: day(EXAMPLE.window.validTo) };

export async function ok(method: string, path: string, body: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300)
    throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A price row as a body names it: `minQuantity` only above 1. */
const bodyRow = ({ productCode, minQuantity, amount }: ExampleRow) =>
  minQuantity === 1 ? { productCode, amount } : { productCode, minQuantity, amount };

export async function seedWorkedExample({
  validTo = WINDOW.validTo,
}: { validTo?: string } = {}): Promise<Record<string, number>> {
  const window = { ...WINDOW, validTo };
  const ids: Record<string, number> = {};
  const channel = EXAMPLE.channelCode;

  await created("/v1/api/channel", { code: channel, name: "Web DE" });
  for (const code of EXAMPLE.productCodes) await created("/v1/api/product", { code, name: code });
  for (const code of EXAMPLE.groupCodes)
    await created("/v1/api/customer-group", { code, name: code });
  await ok("POST", `/v1/api/channel/${channel}/customer-group`, {
    customerGroupCodes: EXAMPLE.groupCodes,
  });
  await created("/v1/api/customer", {
    code: EXAMPLE.customerCode,
    name: "Contract customer",
    customerGroupCodes: EXAMPLE.groupCodes,
    channelCodes: [channel],
  });
  await created("/v1/api/customer", { code: "C-ELSEWHERE", name: "Not in WEB-DE" });

  // PL-900, the individual list, stays DRAFT for the first variant; the main case activates it.
  for (const list of EXAMPLE.pricelists) {
    const name = `PL-${list.id}`;
    const fields = {
      name,
      ...window,
      ...(list.level === "INDIVIDUAL" ? {} : { status: "ACTIVE" }),
      ...(list.priority === 0 ? {} : { priority: list.priority }),
    };
    const pl = list.customerCode
      ? await createIndividualPricelist(list.customerCode, fields)
      : await createPricelist(fields);
    ids[name] = pl.id;
    await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, { prices: list.prices.map(bodyRow) });
  }
  for (const list of EXAMPLE.pricelists) {
    const pricelistId = ids[`PL-${list.id}`];
    if (list.level === "CUSTOMER_GROUP")
      await ok("POST", `/v1/api/customer-group/${list.groupCode}/pricelist`, { pricelistId });
    if (list.level === "CHANNEL_PRIMARY")
      await ok("PUT", `/v1/api/channel/${channel}/pricelist/primary`, { pricelistId });
    if (list.level === "CHANNEL")
      await ok("POST", `/v1/api/channel/${channel}/pricelist`, { pricelistId });
  }

  // Each condition, then the customers and groups it is assigned to, as a user would.
  for (const condition of EXAMPLE.tradeConditions) {
    const { id, label: _label, customerGroupCodes: _g, customerCodes: _c, ...body } = condition;
    const tc = await createTradeCondition({
      name: `TC-${id}`,
      status: "ACTIVE",
      ...window,
      ...body,
      ...(body.validFrom ? { validFrom: day(body.validFrom) } : {}),
    });
    ids[`TC-${id}`] = tc.id;
  }
  for (const { id, customerGroupCodes, customerCodes } of EXAMPLE.tradeConditions) {
    const path = `/v1/api/trade-conditions/${ids[`TC-${id}`]}`;
    if (customerGroupCodes) await ok("POST", `${path}/customer-groups`, { customerGroupCodes });
    if (customerCodes) await ok("POST", `${path}/customers`, { customerCodes });
  }

  for (const { id, label: _label, validFrom, validTo: until, ...body } of EXAMPLE.promotions) {
    const pr = await createPromotion({
      name: `PR-${id}`,
      status: "ACTIVE",
      ...body,
      validFrom: day(validFrom),
      validTo: day(until),
    });
    ids[`PR-${id}`] = pr.id;
  }
  return ids;
}

/**
 * Worked example E (docs/pricing-rules.md §26) on top of seedWorkedExample's records: the COST
 * list assigned to WEB-DE, the ACCRUAL for C-1001 (in the example's window up to `validTo`) and
 * the FLOOR derived from the COST list, from scripts/lib/worked-examples.mjs. A suite may give
 * the records other names, or the COST list other rows (test/prices/read-key-costs.test.ts looks
 * for amounts no other record holds). Adds their ids to `ids` as `cost`, `accrual` and `floor`.
 */
export async function seedExampleE(
  ids: Record<string, number>,
  {
    validTo = WINDOW.validTo,
    names = {},
    costs = WORKED_EXAMPLE_E.cost.prices,
  }: {
    validTo?: string;
    names?: { cost?: string; accrual?: string; floor?: string };
    costs?: readonly ExampleRow[];
  } = {},
): Promise<void> {
  const { accrual, floor } = WORKED_EXAMPLE_E;
  const channel = EXAMPLE.channelCode;
  const cost = await createPricelist({
    name: names.cost ?? "CO-WEB-DE",
    kind: "COST",
    status: "ACTIVE",
  });
  ids.cost = cost.id;
  await ok("PUT", `/v1/api/pricelist/${cost.id}/prices`, { prices: costs.map(bodyRow) });
  await assignPricelistToChannel(channel, cost.id);
  const { id: _id, label: _label, customerCodes, ...body } = accrual;
  const ac = await createTradeCondition({
    name: names.accrual ?? "AC C-1001 2 % on P-B",
    status: "ACTIVE",
    ...body,
    validFrom: WINDOW.validFrom,
    validTo,
  });
  ids.accrual = ac.id;
  await ok("POST", `/v1/api/trade-conditions/${ac.id}/customers`, { customerCodes });
  const fl = await createPricelist({
    name: names.floor ?? "FL cost + 10 %",
    kind: "FLOOR",
    status: "ACTIVE",
    derivation: { basePricelistId: cost.id, adjustmentBp: floor.adjustmentBp },
  });
  ids.floor = fl.id;
  await assignPricelistToChannel(channel, fl.id);
}
