import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { addDemoChangeRequests, nextMonth } from "../../scripts/lib/demo-change-requests.mjs";
import { BRANDS_EXAMPLE } from "../../scripts/lib/demo-brands.mjs";
import { GRADUATED_EXAMPLE } from "../../scripts/lib/demo-graduated.mjs";
import { addDemoQuotes, DEMO_QUOTE_CODES } from "../../scripts/lib/demo-quotes.mjs";
import {
  WORKED_EXAMPLE_G as G,
  WORKED_EXAMPLE_I as I,
} from "../../scripts/lib/worked-examples.mjs";
import { demoSql } from "../../scripts/lib/demo-sql.mjs";
import { percentOf, roundToEnding } from "../../src/pricing";
import {
  simulationExampleAnswer,
  simulationExampleRequest,
} from "../../src/resources/simulations/simulations.examples";
import { call as api } from "../fuzz/worker";

/**
 * The demo data of `npm run dev` (scripts/lib/demo-*.mjs), loaded as `npm run dev` loads it: its
 * SQL in one batch. Both worked examples of docs/pricing-rules.md price exactly as documented
 * (§10 and §16, with their ids), the catalogue shows each B2B term, and a copy of every record
 * the API writes with rules of its own is accepted by the API (docs/api/resources.md §2,
 * docs/api/relations.md §5: the demo never holds what the API would refuse).
 */

beforeAll(async () => {
  const statements = demoSql()
    .split(/;\n/)
    .map((s) => s.replace(/^--.*\n/gm, "").trim())
    .filter(Boolean);
  await env.DB.batch(statements.map((s) => env.DB.prepare(s)));
});

const resolve = (body: Record<string, unknown>) =>
  api("POST", "/v1/api/prices/resolve", { body, key: "test-read-key" });

/** Per line: [code, status, final, line amount, adjustments as [kind, id, rung, amount]]. */
const summary = (body: any) =>
  body.lines.map((l: any) => [
    l.productCode,
    l.status,
    l.finalUnitAmount,
    l.lineAmount,
    (l.adjustments ?? []).map((a: any) => [a.kind, a.id, a.rung, a.amount]),
  ]);

describe("the worked examples in the demo data", () => {
  it("§10 prices P-A × 3, P-B × 60, P-C × 10 as documented", async () => {
    const res = await resolve({
      channelCode: "WEB-DE",
      customerCode: "C-1001",
      at: "2025-06-15T10:00:00Z",
      lines: [
        { productCode: "P-A", quantity: 3 },
        { productCode: "P-B", quantity: 60 },
        { productCode: "P-C", quantity: 10 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      totalAmount: 27710,
      complete: true,
      validUntil: "2025-07-01T00:00:00.000Z",
    });
    expect(summary(res.body)).toEqual([
      ["P-A", "OK", 850, 2550, []],
      [
        "P-B",
        "OK",
        391,
        23460,
        [
          ["DISCOUNT", 2, 6, -19],
          ["SURCHARGE", 4, 7, 25],
        ],
      ],
      ["P-C", "OK", 170, 1700, [["PROMOTION", 7, null, -30]]],
    ]);
  });

  it("§26: a read key never learns the cost of P-B through the FLOOR 941 (cost + 10 %)", async () => {
    const read = { key: "test-read-key" };
    // Absent and 404, as the COST list 940 it derives from (docs/api/access.md §18).
    for (const id of [940, 941]) {
      const res = await api("GET", `/v1/api/pricelist/${id}`, read);
      expect(res.status).toBe(404);
      expect((await api("GET", `/v1/api/pricelist/${id}`)).status).toBe(200);
    }
    const floors = await api("GET", "/v1/api/pricelist?filter.kind=FLOOR&limit=100", read);
    expect(floors.body.data.map((p: any) => p.id)).not.toContain(941);
    // Explain names neither the floor nor its 330.
    const res = await resolve({
      channelCode: "WEB-DE",
      customerCode: "C-1001",
      at: "2025-06-15T10:00:00Z",
      explain: true,
      lines: [{ productCode: "P-B", quantity: 60 }],
    });
    expect(res.body.lines[0].explain.floors).toEqual([]);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("FL-941");
    expect(text).not.toMatch(/"pricelistId":94[01]\b/);
    expect(text).not.toMatch(/(?<!\d)330(?!\d)/);
  });

  const b2b = (lines: [string, number][]) =>
    resolve({
      channelCode: "B2B-AT",
      customerCode: "K-7",
      at: "2025-09-01T12:00:00Z",
      lines: lines.map(([productCode, quantity]) => ({ productCode, quantity })),
    });

  it("§16 prices W-1 × 600, S-1 × 500, T-1 × 2, X-1 × 3 as documented, with its ids", async () => {
    const res = await b2b([
      ["W-1", 600],
      ["S-1", 500],
      ["T-1", 2],
      ["X-1", 3],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      totalAmount: 783597,
      pricedTotalAmount: 783597,
      complete: true,
      validUntil: "2026-01-01T00:00:00.000Z",
    });
    expect(summary(res.body)).toEqual([
      [
        "W-1",
        "OK",
        1024,
        614400,
        [
          ["DISCOUNT", 42, 5, -55],
          ["DISCOUNT", 44, 11, -21],
        ],
      ],
      [
        "S-1",
        "OK",
        310,
        155000,
        [
          ["DISCOUNT", 42, 5, -16],
          ["DISCOUNT", 44, 11, -6],
          ["FLOOR", 30, null, 3],
        ],
      ],
      [
        "T-1",
        "OK",
        5000,
        10000,
        [
          ["DISCOUNT", 43, 1, -1800],
          ["PROMOTION", 51, null, -810],
          ["FLOOR", 30, null, 411],
        ],
      ],
      ["X-1", "OK", 1399, 4197, [["SURCHARGE", 45, 7, 50]]],
    ]);
    expect(res.body.lines.map((l: any) => l.source.derivedFrom)).toEqual([
      null,
      { pricelistId: 10, unitAmount: 360, exchangeRate: null },
      { pricelistId: 10, unitAmount: 8000, exchangeRate: null },
      { pricelistId: 10, unitAmount: 1500, exchangeRate: null },
    ]);
  });

  it("§16.3: W-1 × 650 is refused with 600 and 700 suggested; the priced lines sum to 170697", async () => {
    const res = await b2b([
      ["W-1", 650],
      ["S-1", 500],
      ["T-1", 2],
      ["X-1", 3],
    ]);
    expect(res.body).toMatchObject({ totalAmount: null, pricedTotalAmount: 170697 });
    expect(res.body.lines[0]).toMatchObject({
      status: "QUANTITY_NOT_ALLOWED",
      suggestedQuantities: { below: 600, above: 700 },
    });
    expect(res.body.lines[1]).toMatchObject({ finalUnitAmount: 313, lineAmount: 156500 });
  });
});

describe("worked examples G and I in the demo data (scripts/lib/worked-examples.mjs)", () => {
  it("G: the graduated cable ties of WEB-DE, 60 pieces as example G's bands, 5380", async () => {
    const lot = G.lots.find((l) => l.quantity === 60)!;
    const res = await resolve({
      channelCode: GRADUATED_EXAMPLE.channelCode,
      lines: [{ productCode: GRADUATED_EXAMPLE.productCode, quantity: lot.quantity }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.lines[0].source).toMatchObject({
      pricelistId: GRADUATED_EXAMPLE.pricelistId,
      tierMode: "GRADUATED",
      baseUnitAmount: lot.amount,
      bands: G.bands60,
    });
  });

  it("I: brand BOSCH in WEB-BR, the group's 10 % before the brand's 30 % on P-A (900), the brand's on P-C (700)", async () => {
    const demoCodes = BRANDS_EXAMPLE.productCodes;
    const res = await resolve({
      channelCode: BRANDS_EXAMPLE.channelCode,
      explain: true,
      lines: I.products.map((p) => ({ productCode: demoCodes[p.code], quantity: 1 })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { plain } = I.variants;
    expect(res.body.lines.map((l: any) => l.finalUnitAmount)).toEqual(
      I.products.map((p) => plain.finalUnitAmounts[p.code]),
    );
    const ids = BRANDS_EXAMPLE.tradeConditionIds;
    const onPA = res.body.lines[0].explain.tradeConditions;
    expect(onPA.find((e: any) => e.id === ids.group)).toMatchObject(plain.onPA.group);
    expect(onPA.find((e: any) => e.id === ids.brand)).toMatchObject(plain.onPA.brand);
    const brand = await api("GET", `/v1/api/brand/${I.brand.code}`, { key: "test-read-key" });
    expect(brand.body).toMatchObject(I.brand);
    const products = await api("GET", `/v1/api/product?filter.brandCode=${I.brand.code}`, {
      key: "test-read-key",
    });
    expect(products.body.data.map((p: any) => p.code).sort()).toEqual(
      Object.values(BRANDS_EXAMPLE.productCodes).sort(),
    );
  });
});

describe("the catalogue's B2B terms", () => {
  it("has a product-group tree with every catalogue product in a group but a few", async () => {
    const roots = await api("GET", "/v1/api/product-group?filter.parentCode=$null&limit=100");
    expect(roots.body.data.map((g: any) => g.code).sort()).toEqual(
      [
        "CHEMICALS",
        "DRILLING-CUTTING",
        "ELECTRICAL",
        "FAST",
        "FIXINGS",
        "PLUMBING",
        "SAFETY",
        "TOOLING",
        "TOOLS",
        // Worked example I's group (scripts/lib/demo-brands.mjs).
        "BOSCH-TOOLS",
      ].sort(),
    );
    const products = await api("GET", "/v1/api/product?filter.productGroupCode=HEX-BOLTS&limit=1");
    expect(products.body.meta.totalItems).toBeGreaterThan(10);
  });

  it("prices a wholesaler in field sales through groups, a derived list, order-level scales and a box rule", async () => {
    const res = await resolve({
      channelCode: "FIELD-SALES",
      customerCode: "C-1023",
      at: "2026-06-15T10:00:00Z",
      lines: [
        { productCode: "P-00005", quantity: 600 }, // listed in TC-10
        { productCode: "P-00003", quantity: 500 }, // a hex bolt: TC-24's group is closer than TC-23's
        { productCode: "P-00093", quantity: 100 }, // a wood screw: TC-23 only
        { productCode: "P-00177", quantity: 150 }, // a cable: TC-26 from 5,000 EUR of electrical
        { productCode: "P-00223", quantity: 15 }, // a press fitting, in bags of 10
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [listed, bolt, screw, cable, fitting] = res.body.lines;
    expect(listed.source).toMatchObject({ pricelistId: 21, derivedFrom: { pricelistId: 3 } });
    expect(listed.source.baseUnitAmount % 10).toBe(9);
    const byId = (line: any) => line.adjustments.map((a: any) => [a.id, a.rung]);
    expect(byId(listed)).toEqual([
      [10, 4],
      [25, 11],
    ]);
    expect(byId(bolt)).toEqual([
      [24, 5],
      [25, 11],
    ]);
    expect(byId(screw)).toEqual([
      [23, 5],
      [25, 11],
    ]);
    expect(byId(cable)).toEqual([
      [26, 8],
      [7, 11],
    ]);
    expect(fitting).toMatchObject({
      status: "QUANTITY_NOT_ALLOWED",
      suggestedQuantities: { below: 10, above: 20 },
    });
  });

  it("raises an installer's power tool to the field-sales floor and applies a quantity threshold", async () => {
    const res = await resolve({
      channelCode: "FIELD-SALES",
      customerCode: "C-1002",
      at: "2026-04-15T10:00:00Z",
      lines: [
        { productCode: "P-00262", quantity: 2 },
        { productCode: "P-00247", quantity: 12 },
      ],
    });
    const [tool, gloves] = res.body.lines;
    expect(tool.adjustments.at(-1)).toMatchObject({ kind: "FLOOR", id: 22 });
    expect(gloves.adjustments).toMatchObject([{ kind: "PROMOTION", id: 9 }]);
  });
});

describe("money in the demo data (docs/pricing-rules.md §19–§22, scripts/lib/demo-money.mjs)", () => {
  const screws = (channelCode: string, at: string, quantity = 4000) =>
    resolve({ channelCode, at, explain: true, lines: [{ productCode: "P-00298", quantity }] });

  it("WEB-DE prices the bulk wood screws per 1,000 and advises 5,000 at 4,000", async () => {
    const res = await screws("WEB-DE", "2026-03-02T10:00:00Z");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.lines[0]).toMatchObject({
      status: "OK",
      priceUnit: 1000,
      source: { pricelistId: 100, baseUnitAmount: 1250 },
      tiers: [
        { minQuantity: 1000, amount: 1250, priceUnit: 1000 },
        { minQuantity: 5000, amount: 900, priceUnit: 1000 },
      ],
      quantityRule: { minimum: 1000, increment: 500, maximum: null },
      // The channel's online 2 % (8) and the fastener volume bonus, 2 % from 1,000 pieces in the
      // order (25), per 1000 pieces; the advice keeps the order's 4,000 for that bonus (§22).
      finalUnitAmount: 1200,
      lineAmount: 4800,
      priceBreak: { quantity: 5000, lineAmount: 4320 },
    });
  });

  it("SHOP-CH prices them from the CHF list 120, list 100 at the day's EUR → CHF rate", async () => {
    const march = await screws("SHOP-CH", "2026-03-02T10:00:00Z", 1000);
    expect(march.status, JSON.stringify(march.body)).toBe(200);
    // 1250 × 0.9365 × 1.05 = 1229.16 → 1229, up to 5 Rappen: 1230 per 1000.
    expect(march.body.lines[0]).toMatchObject({
      currency: "CHF",
      priceUnit: 1000,
      source: {
        pricelistId: 120,
        baseUnitAmount: 1230,
        derivedFrom: {
          pricelistId: 100,
          unitAmount: 1250,
          exchangeRate: {
            from: "EUR",
            to: "CHF",
            rate: "0.9365",
            validFrom: "2026-01-01T00:00:00.000Z",
          },
        },
      },
    });
    expect(Date.parse(march.body.validUntil)).toBeLessThanOrEqual(
      Date.parse("2026-07-01T00:00:00Z"),
    );
    // From July at 0.941: 1250 × 0.941 × 1.05 = 1235.06 → 1235.
    const august = await screws("SHOP-CH", "2026-08-03T10:00:00Z", 1000);
    expect(august.body.lines[0].source).toMatchObject({
      baseUnitAmount: 1235,
      derivedFrom: { exchangeRate: { rate: "0.941" } },
    });
  });

  it("the linter names the screws' tier cliff among a handful, and no list lacks a rate", async () => {
    const res = await api(
      "GET",
      "/v1/api/pricing/lint?filter.code=$in:TIER_CLIFF,MISSING_EXCHANGE_RATE&limit=100&page=1",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const all: any[] = [];
    for (let page = 1; page <= res.body.meta.totalPages; page++) {
      const next = await api(
        "GET",
        `/v1/api/pricing/lint?filter.code=$in:TIER_CLIFF,MISSING_EXCHANGE_RATE&limit=100&page=${page}`,
      );
      all.push(...next.body.data);
    }
    expect(all.filter((f) => f.code === "MISSING_EXCHANGE_RATE")).toEqual([]);
    // A handful, not one per tiered product: the demo's tiers take off less than a piece's
    // worth at their first quantity (scripts/lib/demo-data.mjs), so only rounding and the
    // screws' volume price leave cliffs.
    expect(all.filter((f) => f.code === "TIER_CLIFF").length).toBeLessThanOrEqual(10);
    const cliff = all.find((f) => f.records.some((r: any) => r.code === "P-00298"));
    expect(cliff).toEqual({
      code: "TIER_CLIFF",
      severity: "WARNING",
      message:
        "pricelist 100 prices product P-00298 at 1250 per 1000 from quantity 1000 and 900 per " +
        "1000 from 5000: buying 4000–4500 pieces costs more than buying 5000; lower the price " +
        "from 1000, raise the one from 5000 or add a tier between them, so that fewer pieces " +
        "never cost more",
      records: [
        { kind: "pricelist", id: 100 },
        { kind: "product", code: "P-00298" },
      ],
    });
  });
});

// One request per record: a few hundred in all.
describe("the publish simulation on the demo data (docs/simulation.md §7)", () => {
  it("answers the /doc example: activating TC-5 for C-1001 in June 2025", async () => {
    const res = await api("POST", "/v1/api/simulations/prices", { body: simulationExampleRequest });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual(simulationExampleAnswer);
  });

  it("activating trade condition 28 lowers the power tool prices of WEB-DE's retail customers", async () => {
    const res = await api("POST", "/v1/api/simulations/prices", {
      body: {
        channelCode: "WEB-DE",
        at: "2026-06-15T10:00:00Z",
        customers: { sample: 99, anonymous: true },
        products: { sample: 1000 },
        changes: { activate: { tradeConditionIds: [28] } },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Its 5 % for RETAIL on POWER-TOOLS outranks the channel's 2 % (a group rung before the
    // channel's): about 3 % off for the six retail customers of WEB-DE on the 12 power tools, but
    // for C-1012's combi hammer drill P-00265, whose key-account NET_PRICE (13) stops discounts.
    const { summary, rows } = res.body;
    // WEB-DE's 29 customers and the anonymous buyer, every product.
    expect(summary).toMatchObject({ evaluated: 30 * 308, changed: 71, raised: 0, lowered: 71 });
    expect(summary.distribution).toEqual([{ percent: -3, count: 71 }]);
    expect(summary.mostAffectedCustomers.map((c: any) => [c.customerCode, c.changed])).toEqual([
      ["C-1004", 12],
      ["C-1014", 12],
      ["C-1015", 12],
      ["C-1020", 12],
      ["C-1039", 12],
      ["C-1012", 11],
    ]);
    expect(new Set(rows.map((r: any) => r.changed.join()))).toEqual(new Set(["RUNG,ADJUSTMENTS"]));
    expect(rows.every((r: any) => r.after.adjustments.some((a: any) => a.id === 28))).toBe(true);
  });
});

describe("the demo's change requests (docs/operations.md, Local development)", () => {
  // Each submit and approve prices the impact over every customer of the channels (within the
  // pair budget, docs/api/change-requests.md §17.3) at every tier: seconds on a loaded machine.
  it(
    "one for next month approved by a second key, one waiting; the Changes page has both",
    { timeout: 120_000 },
    async () => {
      const now = Date.now();
      const made = await addDemoChangeRequests(
        (method, path, body, key) => api(method, path, { body, key }),
        { author: "test-writer-key-21", approver: "test-writer-key-22" },
        now,
      );
      const effectiveAt = new Date(nextMonth(now)).toISOString();
      expect(made.approved).toMatchObject({
        status: "APPLIED",
        effectiveAt,
        author: "writer-21",
        approvedBy: "writer-22",
      });
      expect(made.pending).toMatchObject({
        status: "PENDING_APPROVAL",
        effectiveAt,
        approvedBy: null,
      });
      // Power tools and batteries priced in WEB-DE and its customers' channels: +3 % and +5 %,
      // rounded up to …9.
      expect(made.approved.impact.pricesChanged).toBeGreaterThan(0);
      expect(made.approved.impact.channelCodes).toContain("WEB-DE");
      expect(made.approved.impact.maxRaiseBp).toBeGreaterThanOrEqual(300);
      // A raise can cut a price too: P-00262 now reaches promotion 8's value threshold (−5 %).
      expect(made.approved.impact.maxCutBp).toBe(214);
      expect(made.pending.impact.maxRaiseBp).toBeGreaterThanOrEqual(500);
      // From next month the power tools of pricelist 100 cost more; up to it, as they did.
      const { results } = await env.DB.prepare(
        `select o.amount as old, n.amount as new from pricelist_prices o join pricelist_prices n
         on n.pricelist_id = o.pricelist_id and n.product_id = o.product_id
         and n.min_quantity = o.min_quantity and n.valid_from = o.valid_to
       join products p on p.id = o.product_id join product_groups g on g.id = p.product_group_id
       where o.pricelist_id = 100 and o.valid_to = ? and g.code = 'POWER-TOOLS'`,
      )
        .bind(nextMonth(now))
        .all<{ old: number; new: number }>();
      expect(results.length).toBe(12);
      for (const row of results) {
        expect(row.new).toBe(
          roundToEnding(percentOf(row.old, 10_300), { mode: "UP", step: 10, ending: 9 }),
        );
      }
    },
  );
});

describe("every record with rules of its own is one the API accepts", { timeout: 120_000 }, () => {
  const all = async (path: string) => {
    const items: any[] = [];
    for (let page = 1; ; page++) {
      const res = await api("GET", `${path}?limit=100&page=${page}&sortBy=id:ASC`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      items.push(...res.body.data);
      if (items.length >= res.body.meta.totalItems) return items;
    }
  };
  const ok = async (method: string, path: string, body: unknown) => {
    const res = await api(method, path, { body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const startStatus = (status: string) => (status === "DRAFT" ? "DRAFT" : "ACTIVE");
  const finish = async (path: string, status: string) => {
    if (status === "INACTIVE" || status === "ARCHIVED") await ok("PATCH", path, { status });
  };

  it("product groups (a copy of the tree) and products (group and quantity rule)", async () => {
    for (const g of await all("/v1/api/product-group")) {
      await ok("POST", "/v1/api/product-group", {
        code: `${g.code}-COPY`,
        name: g.name,
        parentCode: g.parentCode === null ? null : `${g.parentCode}-COPY`,
      });
    }
    for (const p of await all("/v1/api/product")) {
      await ok("POST", "/v1/api/product", {
        code: `${p.code}-COPY`,
        name: p.name,
        productGroupCode: p.productGroupCode,
        brandCode: p.brandCode,
        minOrderQuantity: p.minOrderQuantity,
        orderIncrement: p.orderIncrement,
        maxOrderQuantity: p.maxOrderQuantity,
      });
    }
  });

  it("pricelists: kind, derivation and where they are assigned", async () => {
    // The API shows no pricelist's assignments; the demo's SQL rows say where to assign the copy.
    const { results: places } = await env.DB.prepare(
      `select cp.pricelist_id as id, 'channel' as kind, ch.code, cp.is_primary as "primary"
         from channel_pricelists cp join channels ch on ch.id = cp.channel_id
       union all select gp.pricelist_id, 'customer-group', g.code, 0
         from customer_group_pricelists gp join customer_groups g on g.id = gp.customer_group_id
       union all select cp.pricelist_id, 'customer', cu.code, 0
         from customer_pricelists cp join customers cu on cu.id = cp.customer_id`,
    ).all<{ id: number; kind: string; code: string; primary: number }>();
    expect(places.some((p) => p.kind === "channel" && p.id === 22)).toBe(true);
    for (const p of await all("/v1/api/pricelist")) {
      const common = {
        name: p.name,
        currency: p.currency,
        priority: p.priority,
        validFrom: p.validFrom,
        validTo: p.validTo,
        taxInclusive: p.taxInclusive,
        allowsTradeDiscounts: p.allowsTradeDiscounts,
      };
      const copy =
        p.scope === "INDIVIDUAL"
          ? await ok("POST", "/v1/api/pricelist/individual", {
              ...common,
              customerCode: p.customerCode,
            })
          : await ok("POST", "/v1/api/pricelist", {
              ...common,
              status: startStatus(p.status),
              kind: p.kind,
              derivation: p.derivation,
            });
      if (p.scope === "INDIVIDUAL" && p.status !== "DRAFT") {
        await ok("PATCH", `/v1/api/pricelist/${copy.id}`, { status: "ACTIVE" });
      }
      for (const place of places.filter((x) => x.id === p.id)) {
        const path = `/v1/api/${place.kind}/${place.code}/pricelist`;
        const body = { pricelistId: copy.id };
        if (place.primary) await ok("PUT", `${path}/primary`, body);
        else await ok("POST", path, body);
      }
      await finish(`/v1/api/pricelist/${copy.id}`, p.status);
    }
  });

  it("trade conditions: product groups, scale bases and their targets", async () => {
    for (const t of await all("/v1/api/trade-conditions")) {
      const copy = await ok("POST", "/v1/api/trade-conditions", {
        name: t.name,
        scope: t.scope,
        type: t.type,
        discountType: t.discountType,
        value: t.value,
        currency: t.currency,
        status: startStatus(t.status),
        validFrom: t.validFrom,
        validTo: t.validTo,
        priority: t.priority,
        stackable: t.stackable,
        productCodes: t.productCodes,
        productGroupCodes: t.productGroupCodes,
        brandCodes: t.brandCodes,
        channelCodes: t.channelCodes,
        scaleBasis: t.scaleBasis,
        scales: t.scales.map((s: any) => ({ minimum: s.minimum, value: s.value })),
      });
      if (t.customerGroupCodes.length) {
        await ok("POST", `/v1/api/trade-conditions/${copy.id}/customer-groups`, {
          customerGroupCodes: t.customerGroupCodes,
        });
      }
      if (t.customerCodes.length) {
        await ok("POST", `/v1/api/trade-conditions/${copy.id}/customers`, {
          customerCodes: t.customerCodes,
        });
      }
      await finish(`/v1/api/trade-conditions/${copy.id}`, t.status);
    }
  });

  it("promotions: product groups and thresholds", async () => {
    for (const p of await all("/v1/api/promotion")) {
      const copy = await ok("POST", "/v1/api/promotion", {
        name: p.name,
        discountType: p.discountType,
        value: p.value,
        currency: p.currency,
        status: startStatus(p.status),
        validFrom: p.validFrom,
        validTo: p.validTo,
        priority: p.priority,
        stacking: p.stacking,
        productCodes: p.productCodes,
        productGroupCodes: p.productGroupCodes,
        brandCodes: p.brandCodes,
        channelCodes: p.channelCodes,
        customerGroupCodes: p.customerGroupCodes,
        threshold: p.threshold,
      });
      await finish(`/v1/api/promotion/${copy.id}`, p.status);
    }
  });
});

describe("the demo's quotes (docs/operations.md, Local development)", () => {
  it("worked example F in WEB-Q, beside the demo data: quotes in five states", async () => {
    const made = await addDemoQuotes(
      (method, path, body, key) => api(method, path, { body, key }),
      {
        admin: "test-writer-key-23",
        read: "test-read-key",
        rep: "test-rep-1-key",
        manager: "test-manager-key",
      },
      Date.now(),
    );
    const statusOf = async (id: number) =>
      (await api("GET", `/v1/api/quotes/${id}`, { key: "test-rep-1-key" })).body;
    expect((await statusOf(made.pending)).status).toBe("PENDING_APPROVAL");
    expect((await statusOf(made.pending)).requiredTier).toBe("MANAGER");
    // Written by the rep alone: the manager approves (docs/quotes.md §3.2).
    expect(await statusOf(made.pending)).toMatchObject({
      writers: ["rep-1"],
      writtenByCaller: true,
    });
    expect((await statusOf(made.sent)).status).toBe("SENT");
    expect((await statusOf(made.renegotiating)).status).toBe("RENEGOTIATING");
    expect(await statusOf(made.agreement)).toMatchObject({ status: "ACCEPTED", mode: "AGREEMENT" });
    const draft = await statusOf(made.draft);
    expect(draft.status).toBe("DRAFT");
    // Example F's numbers, in the demo's codes.
    expect(draft.lines[0]).toMatchObject({
      productCode: DEMO_QUOTE_CODES.product,
      regularUnitAmount: 391,
      floorUnitAmount: 320,
      cutBp: 1561,
      marginBp: 909,
    });
  });
});
