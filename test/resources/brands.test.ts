import { beforeAll, describe, expect, it } from "vitest";
import {
  createBrand,
  createPricelist,
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
  setPrimaryPricelist,
} from "../factories";
import { WORKED_EXAMPLE_I as I } from "../../scripts/lib/worked-examples.mjs";
import { api, created, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";

/**
 * Brands (docs/brands.md, docs/pricing-rules.md §31): the resource, products' brandCode,
 * brandCodes on trade conditions and promotions, reach through a brand on the group rung after
 * every group (worked example I, exactly), and what follows reach: explain, the change feed's
 * affects, the simulation, the linter and change requests' ADJUST_PRICES selector.
 */

/** The cursor after the last change of the feed. */
async function feedEnd() {
  let cursor = 0;
  for (;;) {
    const res = await api("GET", `/v1/api/changes?after=${cursor}&limit=1000`);
    cursor = res.body.next;
    if (!res.body.hasMore) return cursor;
  }
}

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

describe("the brand resource", () => {
  it("creates, reads, lists, renames and deletes a brand by code", async () => {
    const code = uid("BR");
    const brand = await created("/v1/api/brand", { code, name: "Bosch" });
    expect(brand).toMatchObject({ code, name: "Bosch" });
    expect(typeof brand.id).toBe("number");
    expect((await api("GET", `/v1/api/brand/${code}`)).body).toEqual(brand);
    const list = await api("GET", `/v1/api/brand?search=${code}`);
    expect(list.body.data.map((b: { code: string }) => b.code)).toEqual([code]);
    const renamed = await api("PATCH", `/v1/api/brand/${code}`, { body: { name: "Bosch Pro" } });
    expect(renamed.body).toMatchObject({ code, name: "Bosch Pro" });
    expect((await api("DELETE", `/v1/api/brand/${code}`)).status).toBe(204);
    expectProblem(await api("GET", `/v1/api/brand/${code}`), 404, "NOT_FOUND");
  });

  it("refuses a taken code, a bad body, a read key and no key", async () => {
    const brand = await createBrand();
    const taken = expectProblem(
      await api("POST", "/v1/api/brand", { body: { code: brand.code, name: "Again" } }),
      409,
      "CONFLICT",
    );
    expect(taken.detail).toContain(brand.code);
    expect(issuePaths(await api("POST", "/v1/api/brand", { body: { code: "a b" } }))).toEqual(
      expect.arrayContaining(["body.code", "body.name"]),
    );
    const body = { code: uid("BR"), name: "X" };
    expect((await api("POST", "/v1/api/brand", { body, key: KEYS.read })).status).toBe(403);
    expect((await api("POST", "/v1/api/brand", { body, key: null })).status).toBe(401);
  });

  it("upserts brands in bulk", async () => {
    const [a, b] = [uid("BR"), uid("BR")];
    const res = await api("PUT", "/v1/api/brand", {
      body: {
        brands: [
          { code: a, name: "A" },
          { code: b, name: "B" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect((await api("GET", `/v1/api/brand/${b}`)).body.name).toBe("B");
  });

  it("gives products a brandCode, filters them by it and refuses an unknown one", async () => {
    const brand = await createBrand();
    const product = await createProduct({ brandCode: brand.code });
    expect(product.brandCode).toBe(brand.code);
    const other = await createProduct();
    expect(other.brandCode).toBeNull();
    const listed = await api("GET", `/v1/api/product?filter.brandCode=${brand.code}`);
    expect(listed.body.data.map((p: { code: string }) => p.code)).toEqual([product.code]);
    const unknown = await api("POST", "/v1/api/product", {
      body: { code: uid("P"), name: "P", brandCode: "NO-SUCH-BRAND" },
    });
    expect(issuePaths(unknown)).toEqual(["body.brandCode"]);
    const cleared = await api("PATCH", `/v1/api/product/${product.code}`, {
      body: { brandCode: null },
    });
    expect(cleared.body.brandCode).toBeNull();
  });

  it("refuses to delete a brand a product, a condition or a promotion names (409 naming them)", async () => {
    const brand = await createBrand();
    const product = await createProduct({ brandCode: brand.code });
    const tc = await createTradeCondition({ brandCodes: [brand.code] });
    const pr = await createPromotion({ brandCodes: [brand.code] });
    const res = expectProblem(await api("DELETE", `/v1/api/brand/${brand.code}`), 409, "IN_USE");
    expect((res as unknown as { blockers: unknown[] }).blockers).toMatchObject([
      { kind: "product", count: 1, codes: [product.code] },
      { kind: "tradeCondition", count: 1 },
      { kind: "promotion", count: 1 },
    ]);
    expect(JSON.stringify(res)).toContain(String(tc.id));
    expect(JSON.stringify(res)).toContain(String(pr.id));
  });

  it("takes brandCodes on conditions and promotions, naming an unknown code", async () => {
    const brand = await createBrand();
    const tc = await createTradeCondition({ brandCodes: [brand.code] });
    expect(tc.brandCodes).toEqual([brand.code]);
    const pr = await createPromotion({ brandCodes: [brand.code] });
    expect(pr.brandCodes).toEqual([brand.code]);
    const bad = await api("POST", "/v1/api/trade-conditions", {
      body: {
        name: "x",
        scope: "GLOBAL",
        type: "DISCOUNT",
        discountType: "PERCENTAGE",
        value: 1,
        brandCodes: ["NO-SUCH-B"],
      },
    });
    const problem = expectProblem(bad, 400, "VALIDATION_FAILED");
    expect(problem.errors?.[0]?.path).toMatch(/^body\.brandCodes/);
    expect(JSON.stringify(problem.errors)).toContain("NO-SUCH-B");
    const patched = await api("PATCH", `/v1/api/trade-conditions/${tc.id}`, {
      body: { brandCodes: [] },
    });
    expect(patched.body.brandCodes).toEqual([]);
  });
});

/**
 * Worked example I (docs/pricing-rules.md §31): brand BOSCH; P-A (group TOOLS, brand BOSCH), P-C
 * (no group, brand BOSCH); 1000 each on WEB. TC-B 30 % on BOSCH, TC-G 10 % on TOOLS. Its data and
 * figures are scripts/lib/worked-examples.mjs (the engine tests and the demo data read them too);
 * the records get codes of this suite's own.
 */
const { brand: tcBrand, group: tcGroup } = I.tradeConditions;
const { plain, brandPriority, brandListsPA } = I.variants;
/** The final amounts of P-A and P-C a variant gives. */
const amountsOf = (v: { finalUnitAmounts: Record<string, number> }) =>
  I.products.map((p) => v.finalUnitAmounts[p.code]);
describe("worked example I: reach through a brand, on the group rung after every group", () => {
  const c = { web: "", bosch: "", tools: "", pa: "", pc: "", list: 0 };
  let tcB = 0;
  let tcG = 0;

  beforeAll(async () => {
    c.web = (await created("/v1/api/channel", { code: uid("WEB"), name: "Web" })).code;
    c.bosch = (await createBrand({ name: I.brand.name })).code;
    c.tools = (await createProductGroup({ name: I.productGroup.name })).code;
    c.pa = (await createProduct({ productGroupCode: c.tools, brandCode: c.bosch })).code;
    c.pc = (await createProduct({ brandCode: c.bosch })).code;
    const list = await createPricelist({ status: "ACTIVE" });
    await ok("PUT", `/v1/api/pricelist/${list.id}/prices`, {
      prices: [
        { productCode: c.pa, amount: I.amount },
        { productCode: c.pc, amount: I.amount },
      ],
    });
    await setPrimaryPricelist(c.web, list.id);
    c.list = list.id;
    const discount = { status: "ACTIVE", channelCodes: [c.web] };
    tcB = (
      await createTradeCondition({
        ...discount,
        name: tcBrand.label,
        scope: tcBrand.scope,
        value: tcBrand.value,
        brandCodes: [c.bosch],
      })
    ).id;
    tcG = (
      await createTradeCondition({
        ...discount,
        name: tcGroup.label,
        scope: tcGroup.scope,
        value: tcGroup.value,
        productGroupCodes: [c.tools],
      })
    ).id;
  });

  const resolve = async () => {
    const res = await api("POST", "/v1/api/prices/resolve", {
      body: {
        channelCode: c.web,
        explain: true,
        lines: [
          { productCode: c.pa, quantity: 1 },
          { productCode: c.pc, quantity: 1 },
        ],
      },
    });
    expect(res.status).toBe(200);
    return res.body.lines as {
      finalUnitAmount: number;
      explain: { tradeConditions: Record<string, unknown>[] };
    }[];
  };
  const entry = (line: { explain: { tradeConditions: Record<string, unknown>[] } }, id: number) =>
    line.explain.tradeConditions.find((e) => e.id === id);

  it("P-A: TC-G wins on rung 11 (a group before a brand) → 900; P-C: TC-B → 700", async () => {
    const [pa, pc] = await resolve();
    expect([pa!.finalUnitAmount, pc!.finalUnitAmount]).toEqual(amountsOf(plain));
    expect(entry(pa!, tcG)).toMatchObject(plain.onPA.group);
    expect(entry(pa!, tcB)).toMatchObject(plain.onPA.brand);
    expect(entry(pc!, tcB)).toMatchObject(plain.onPC.brand);
    expect(entry(pc!, tcG)).toMatchObject({ outcome: "OTHER_PRODUCT" });
  });

  it("TC-B with priority 10: P-A still 900 (the group is closer); listing P-A too: rung 10 → 700", async () => {
    await ok("PATCH", `/v1/api/trade-conditions/${tcB}`, { priority: brandPriority.priority });
    const [pa, pc] = await resolve();
    expect([pa!.finalUnitAmount, pc!.finalUnitAmount]).toEqual(amountsOf(brandPriority));
    // The example's P-A is this suite's c.pa.
    await ok("PATCH", `/v1/api/trade-conditions/${tcB}`, {
      productCodes: brandListsPA.productCodes.map(() => c.pa),
    });
    const [pa2, pc2] = await resolve();
    expect([pa2!.finalUnitAmount, pc2!.finalUnitAmount]).toEqual(amountsOf(brandListsPA));
    expect(entry(pa2!, tcB)).toMatchObject(brandListsPA.onPA.brand);
    expect(entry(pc2!, tcB)).toMatchObject(plain.onPC.brand);
    await ok("PATCH", `/v1/api/trade-conditions/${tcB}`, { productCodes: [], priority: 0 });
  });

  it("the change feed names the brand a condition's brand link reaches", async () => {
    const cursor = await feedEnd();
    await ok("PATCH", `/v1/api/trade-conditions/${tcB}`, { name: "TC-B renamed" });
    const feed = await api("GET", `/v1/api/changes?after=${cursor}`);
    const change = feed.body.data.find(
      (x: { entity: string; key: { id?: number } }) =>
        x.entity === "tradeCondition" && x.key.id === tcB,
    );
    expect(change.affects).toMatchObject({ brandCodes: [c.bosch], channelCodes: [c.web] });
    const brandChange = await api("PATCH", `/v1/api/brand/${c.bosch}`, { body: { name: "B!" } });
    expect(brandChange.status).toBe(200);
    const after = await api("GET", `/v1/api/changes?after=${cursor}`);
    const own = after.body.data.find((x: { entity: string }) => x.entity === "brand");
    expect(own).toMatchObject({ event: "brands", affects: { brandCodes: [c.bosch] } });
  });

  it("the simulation prices the products of a brand", async () => {
    const res = await api("POST", "/v1/api/simulations/prices", {
      body: {
        channelCode: c.web,
        customers: { anonymous: true },
        products: { brandCodes: [c.bosch] },
        changes: { prices: [{ pricelistId: c.list, productCode: c.pc, amount: 800 }] },
      },
    });
    expect(res.status).toBe(200);
    // Both products of the brand are priced; only P-C's price changes (800 × 70 % = 560).
    expect(res.body.summary).toMatchObject({ evaluated: 2, changed: 1 });
    expect(res.body.rows.map((r: { productCode: string }) => r.productCode)).toEqual([c.pc]);
    expect(res.body.rows[0].after.finalUnitAmount).toBe(560);
    const unknown = await api("POST", "/v1/api/simulations/prices", {
      body: {
        channelCode: c.web,
        customers: { anonymous: true },
        products: { brandCodes: ["NO-SUCH-B"] },
        changes: { prices: [{ pricelistId: c.list, productCode: c.pc, amount: 800 }] },
      },
    });
    expect(issuePaths(unknown)).toEqual(["body.products.brandCodes.0"]);
  });

  it("change requests take a brandCodes selector in ADJUST_PRICES, naming an unknown brand", async () => {
    const list = await createPricelist({ status: "ACTIVE" });
    const other = (await createProduct()).code;
    await ok("PUT", `/v1/api/pricelist/${list.id}/prices`, {
      prices: [
        { productCode: c.pa, amount: 1000 },
        { productCode: c.pc, amount: 2000 },
        { productCode: other, amount: 3000 },
      ],
    });
    const request = await created("/v1/api/change-requests", {
      title: "Bosch +10 %",
      items: [
        { kind: "ADJUST_PRICES", pricelistId: list.id, brandCodes: [c.bosch], adjustmentBp: 1000 },
      ],
    });
    expect(request.items[0].brandCodes).toEqual([c.bosch]);
    const bad = await api("POST", "/v1/api/change-requests", {
      body: {
        title: "x",
        items: [
          {
            kind: "ADJUST_PRICES",
            pricelistId: list.id,
            brandCodes: ["NO-SUCH-B"],
            adjustmentBp: 1,
          },
        ],
      },
    });
    expect(expectProblem(bad, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.items.0.brandCodes.0", message: "unknown brand NO-SUCH-B" },
    ]);
  });
});

describe("the linter follows brands", () => {
  it("names a brand condition that never wins against a group condition over the same products", async () => {
    const brand = await createBrand();
    const group = await createProductGroup();
    await createProduct({ productGroupCode: group.code, brandCode: brand.code });
    const base = { status: "ACTIVE", value: 1000 };
    // Y lists the brand, X lists the brand too with a lower priority: same rung, Y outranks.
    const y = await createTradeCondition({ ...base, priority: 5, brandCodes: [brand.code] });
    const x = await createTradeCondition({ ...base, priority: 1, brandCodes: [brand.code] });
    const res = await api("GET", "/v1/api/pricing/lint?limit=100&filter.code=NEVER_WINS");
    expect(res.status).toBe(200);
    const never = res.body.data.filter(
      (f: { code: string; records: { kind: string; id?: number }[] }) =>
        f.code === "NEVER_WINS" && f.records.some((r) => r.id === x.id),
    );
    expect(never).toHaveLength(1);
    expect(JSON.stringify(never[0].records)).toContain(String(y.id));
  });
});
