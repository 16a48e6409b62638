import {
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
 * end of the example's window (2026-01-01) for a test that needs its data to price after it.
 */

const WINDOW = { validFrom: "2025-01-01", validTo: "2026-01-01" };

export async function ok(method: string, path: string, body: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300)
    throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function seedWorkedExample({
  validTo = WINDOW.validTo,
}: { validTo?: string } = {}): Promise<Record<string, number>> {
  const window = { ...WINDOW, validTo };
  const ids: Record<string, number> = {};
  const pricelist = async (name: string, body: Record<string, unknown>, prices: unknown[]) => {
    const fields = { name, ...window, ...body };
    const pl = body.customerCode
      ? await createIndividualPricelist(String(body.customerCode), fields)
      : await createPricelist(fields);
    ids[name] = pl.id;
    await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, { prices });
    return pl.id as number;
  };
  const condition = async (name: string, body: Record<string, unknown>) => {
    const tc = await createTradeCondition({ name, status: "ACTIVE", ...window, ...body });
    ids[name] = tc.id;
    return tc.id as number;
  };

  await created("/v1/api/channel", { code: "WEB-DE", name: "Web DE" });
  for (const code of ["P-A", "P-B", "P-C"]) await created("/v1/api/product", { code, name: code });
  for (const code of ["WHOLESALE", "NORTH"])
    await created("/v1/api/customer-group", { code, name: code });
  await ok("POST", "/v1/api/channel/WEB-DE/customer-group", {
    customerGroupCodes: ["WHOLESALE", "NORTH"],
  });
  await created("/v1/api/customer", {
    code: "C-1001",
    name: "Contract customer",
    customerGroupCodes: ["WHOLESALE", "NORTH"],
    channelCodes: ["WEB-DE"],
  });
  await created("/v1/api/customer", { code: "C-ELSEWHERE", name: "Not in WEB-DE" });

  // PL-900 stays DRAFT for the first variant; the main case activates it.
  await pricelist("PL-900", { customerCode: "C-1001" }, [{ productCode: "P-A", amount: 850 }]);
  const pl200 = await pricelist("PL-200", { status: "ACTIVE", priority: 10 }, [
    { productCode: "P-B", amount: 420 },
    { productCode: "P-B", minQuantity: 50, amount: 385 },
  ]);
  const pl210 = await pricelist("PL-210", { status: "ACTIVE", priority: 5 }, [
    { productCode: "P-B", amount: 360 },
  ]);
  const pl100 = await pricelist("PL-100", { status: "ACTIVE" }, [
    { productCode: "P-A", amount: 1000 },
    { productCode: "P-B", amount: 500 },
    { productCode: "P-B", minQuantity: 10, amount: 450 },
    { productCode: "P-C", amount: 200 },
  ]);
  const pl101 = await pricelist("PL-101", { status: "ACTIVE" }, [
    { productCode: "P-C", amount: 180 },
  ]);
  await ok("POST", "/v1/api/customer-group/WHOLESALE/pricelist", { pricelistId: pl200 });
  await ok("POST", "/v1/api/customer-group/NORTH/pricelist", { pricelistId: pl210 });
  await ok("PUT", "/v1/api/channel/WEB-DE/pricelist/primary", { pricelistId: pl100 });
  await ok("POST", "/v1/api/channel/WEB-DE/pricelist", { pricelistId: pl101 });

  const pct = (value: number) => ({ discountType: "PERCENTAGE", value });
  await condition("TC-1", { scope: "GLOBAL", type: "DISCOUNT", ...pct(200) });
  const tc2 = await condition("TC-2", { scope: "CUSTOMER_GROUP", type: "DISCOUNT", ...pct(500) });
  const tc3 = await condition("TC-3", {
    scope: "CUSTOMER",
    type: "DISCOUNT",
    ...pct(800),
    productCodes: ["P-C"],
  });
  await condition("TC-4", {
    scope: "CHANNEL",
    type: "SURCHARGE",
    discountType: "ABSOLUTE",
    value: 25,
    currency: "EUR",
    channelCodes: ["WEB-DE"],
    productCodes: ["P-B"],
  });
  const tc5 = await condition("TC-5", {
    scope: "CUSTOMER",
    type: "DISCOUNT",
    ...pct(1000),
    status: "DRAFT",
  });
  const tc6 = await condition("TC-6", {
    scope: "CUSTOMER_GROUP",
    type: "DISCOUNT",
    ...pct(600),
    validFrom: "2025-07-01",
  });
  await ok("POST", `/v1/api/trade-conditions/${tc2}/customer-groups`, {
    customerGroupCodes: ["WHOLESALE"],
  });
  await ok("POST", `/v1/api/trade-conditions/${tc3}/customers`, { customerCodes: ["C-1001"] });
  await ok("POST", `/v1/api/trade-conditions/${tc5}/customers`, { customerCodes: ["C-1001"] });
  await ok("POST", `/v1/api/trade-conditions/${tc6}/customer-groups`, {
    customerGroupCodes: ["NORTH"],
  });

  const pr7 = await createPromotion({
    name: "PR-7",
    status: "ACTIVE",
    discountType: "PERCENTAGE",
    value: 1500,
    channelCodes: ["WEB-DE"],
    productCodes: ["P-C"],
    validFrom: "2025-06-01",
    validTo: "2025-07-01",
  });
  ids["PR-7"] = pr7.id;
  return ids;
}
