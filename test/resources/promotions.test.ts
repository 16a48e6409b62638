import { describe, expect, it } from "vitest";
import {
  createChannel,
  createCustomerGroup,
  createProduct,
  createProductGroup,
  createPromotion,
  promotionBody,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";

const BASE = "/v1/api/promotion";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("promotions: create and read", () => {
  it("creates a promotion with links and reads it back (seed endpoint 18)", async () => {
    const [p1, p2] = [await createProduct(), await createProduct()];
    const [c1, c2] = [(await createChannel()).code, (await createChannel()).code];
    const group = (await createCustomerGroup()).code;
    const res = await api("POST", BASE, {
      body: {
        name: "PR-7",
        discountType: "PERCENTAGE",
        value: 1500,
        status: "ACTIVE",
        validFrom: "2025-06-01",
        validTo: "2025-07-01T00:00:00Z",
        priority: 3,
        stacking: "ON_TOP",
        productCodes: [p2.code, p1.code],
        channelCodes: [c2, c1, c2],
        customerGroupCodes: [group],
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="2 queries"/);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "PR-7",
      status: "ACTIVE",
      discountType: "PERCENTAGE",
      value: 1500,
      currency: null,
      priceUnit: 1,
      validFrom: "2025-06-01T00:00:00.000Z",
      validTo: "2025-07-01T00:00:00.000Z",
      priority: 3,
      stacking: "ON_TOP",
      productCodes: [p1.code, p2.code].sort(),
      productGroupCodes: [],
      brandCodes: [],
      channelCodes: [c1, c2].sort(),
      customerGroupCodes: [group],
      threshold: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const read = await api("GET", `${BASE}/${res.body.id}`, { key: KEYS.read });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it("applies the defaults: DRAFT, BEST_OF, priority 0, no links, open window", async () => {
    const res = await api("POST", BASE, {
      body: { name: "Five off", discountType: "ABSOLUTE", value: 500, currency: "EUR" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Five off",
      status: "DRAFT",
      discountType: "ABSOLUTE",
      value: 500,
      currency: "EUR",
      priceUnit: 1,
      validFrom: null,
      validTo: null,
      priority: 0,
      stacking: "BEST_OF",
      productCodes: [],
      productGroupCodes: [],
      brandCodes: [],
      channelCodes: [],
      customerGroupCodes: [],
      threshold: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const res = await api("GET", `${BASE}/999999999`);
    expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe("promotion 999999999 not found");
    expect(issuePaths(await api("GET", `${BASE}/abc`))).toEqual(["path.id"]);
    expect(issuePaths(await api("GET", `${BASE}/-1`))).toEqual(["path.id"]);
  });

  it("requires a key (401) and an admin key to write (403)", async () => {
    expectProblem(await api("GET", BASE, { key: null }), 401, "UNAUTHORIZED");
    expectProblem(await api("GET", `${BASE}/1`, { key: null }), 401, "UNAUTHORIZED");
    expectProblem(
      await api("POST", BASE, { key: null, body: promotionBody() }),
      401,
      "UNAUTHORIZED",
    );
    expectProblem(
      await api("POST", BASE, { key: KEYS.read, body: promotionBody() }),
      403,
      "FORBIDDEN",
    );
    const promotion = await createPromotion();
    expectProblem(
      await api("PATCH", `${BASE}/${promotion.id}`, { key: KEYS.read, body: { name: "x" } }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("PATCH", `${BASE}/${promotion.id}`, { key: null, body: { name: "x" } }),
      401,
      "UNAUTHORIZED",
    );
    expect((await api("GET", BASE, { key: KEYS.read })).status).toBe(200);
  });
});

describe("promotions: validation", () => {
  it("refuses wrong types, unknown fields and missing fields, naming each", async () => {
    const res = await api("POST", BASE, {
      body: { name: " ", value: "10", stacking: "SOMETIMES", extra: 1 },
    });
    expect(issuePaths(res).sort()).toEqual([
      "body.discountType",
      "body.extra",
      "body.name",
      "body.stacking",
      "body.value",
    ]);
    expect(
      issuePaths(await api("POST", BASE, { body: promotionBody({ status: "ARCHIVED" }) })),
    ).toEqual(["body.status"]);
  });

  it("checks PERCENTAGE values 1-10000 without currency", async () => {
    for (const value of [0, 10_001]) {
      expect(issuePaths(await api("POST", BASE, { body: promotionBody({ value }) }))).toEqual([
        "body.value",
      ]);
    }
    const res = await api("POST", BASE, { body: promotionBody({ currency: "EUR" }) });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.currency", message: "must be absent or null for PERCENTAGE values" },
    ]);
    expect((await api("POST", BASE, { body: promotionBody({ currency: null }) })).status).toBe(201);
  });

  it("checks ABSOLUTE values >= 0 with a currency", async () => {
    const res = await api("POST", BASE, {
      body: promotionBody({ discountType: "ABSOLUTE", value: -1 }),
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.value", message: "must be >= 0 minor units for an ABSOLUTE value" },
      { path: "body.currency", message: "is required for ABSOLUTE values" },
    ]);
  });

  it("needs validFrom before validTo", async () => {
    const res = await api("POST", BASE, {
      body: promotionBody({ validFrom: "2025-07-01", validTo: "2025-06-01" }),
    });
    expect(issuePaths(res)).toEqual(["body.validTo"]);
  });

  it("refuses unknown product, channel and group codes, naming them, and writes nothing", async () => {
    const before = (await api("GET", `${BASE}?limit=1`)).body.meta.totalItems;
    const product = await createProduct();
    const res = await api("POST", BASE, {
      body: promotionBody({
        productCodes: [product.code, "NOPE-P1"],
        channelCodes: ["NOPE-CH1"],
        customerGroupCodes: ["NOPE-G1", "NOPE-G2"],
      }),
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.productCodes", message: "unknown product codes: NOPE-P1" },
      { path: "body.channelCodes", message: "unknown channel codes: NOPE-CH1" },
      {
        path: "body.customerGroupCodes",
        message: "unknown customer group codes: NOPE-G1, NOPE-G2",
      },
    ]);
    const channel = (await createChannel()).code;
    const one = await api("POST", BASE, {
      body: promotionBody({ channelCodes: [channel, "NOPE-CH2"] }),
    });
    expect(issuePaths(one)).toEqual(["body.channelCodes"]);
    expect((await api("GET", `${BASE}?limit=1`)).body.meta.totalItems).toBe(before);
  });
});

describe("promotions: update", () => {
  it("updates a subset of fields and replaces the given links", async () => {
    const [g1, g2] = [(await createCustomerGroup()).code, (await createCustomerGroup()).code];
    const channel = (await createChannel()).code;
    const product = await createProduct();
    const promotion = await createPromotion({
      customerGroupCodes: [g1],
      channelCodes: [channel],
    });
    const res = await api("PATCH", `${BASE}/${promotion.id}`, {
      body: {
        name: "Autumn sale",
        status: "ACTIVE",
        stacking: "ON_TOP",
        customerGroupCodes: [g2, g1],
        productCodes: [product.code],
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="2 queries"/);
    expect(res.body).toEqual({
      ...promotion,
      name: "Autumn sale",
      status: "ACTIVE",
      stacking: "ON_TOP",
      customerGroupCodes: [g1, g2].sort(),
      productCodes: [product.code],
      channelCodes: [channel],
      updatedAt: expect.stringMatching(ISO),
    });
    expect((await api("GET", `${BASE}/${promotion.id}`)).body).toEqual(res.body);

    const cleared = await api("PATCH", `${BASE}/${promotion.id}`, {
      body: { customerGroupCodes: [], channelCodes: [] },
    });
    expect(cleared.body).toMatchObject({
      customerGroupCodes: [],
      channelCodes: [],
      productCodes: [product.code],
    });
  });

  it("returns the record unchanged for an empty body", async () => {
    const promotion = await createPromotion();
    const res = await api("PATCH", `${BASE}/${promotion.id}`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(promotion);
  });

  it("re-validates the merged record and writes nothing when it is refused", async () => {
    const promotion = await createPromotion({ validFrom: "2025-06-01" });
    const path = `${BASE}/${promotion.id}`;
    expect(issuePaths(await api("PATCH", path, { body: { discountType: "ABSOLUTE" } }))).toEqual([
      "body.currency",
    ]);
    expect(issuePaths(await api("PATCH", path, { body: { currency: "EUR" } }))).toEqual([
      "body.currency",
    ]);
    expect(issuePaths(await api("PATCH", path, { body: { value: 10_001 } }))).toEqual([
      "body.value",
    ]);
    expect(issuePaths(await api("PATCH", path, { body: { validTo: "2025-05-01" } }))).toEqual([
      "body.validTo",
    ]);
    expect(
      issuePaths(await api("PATCH", path, { body: { customerGroupCodes: ["NOPE-G3"] } })),
    ).toEqual(["body.customerGroupCodes"]);
    expect((await api("GET", path)).body).toEqual(promotion);

    const ok = await api("PATCH", path, {
      body: { discountType: "ABSOLUTE", value: 250, currency: "EUR", validFrom: null },
    });
    expect(ok.body).toMatchObject({
      discountType: "ABSOLUTE",
      value: 250,
      currency: "EUR",
      validFrom: null,
    });
  });

  it("follows the status transitions and freezes ARCHIVED promotions", async () => {
    const promotion = await createPromotion({ status: "ACTIVE" });
    const path = `${BASE}/${promotion.id}`;
    const back = await api("PATCH", path, { body: { status: "DRAFT" } });
    expect(expectProblem(back, 409, "INVALID_STATUS_TRANSITION").detail).toContain(
      "from ACTIVE to DRAFT",
    );
    expect((await api("PATCH", path, { body: { status: "ARCHIVED" } })).body.status).toBe(
      "ARCHIVED",
    );
    const edit = await api("PATCH", path, { body: { priority: 9 } });
    expect(expectProblem(edit, 409, "CONFLICT").detail).toBe(
      `promotion ${promotion.id} is ARCHIVED and can no longer be edited`,
    );
    expect((await api("GET", path)).body.priority).toBe(0);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    expectProblem(
      await api("PATCH", `${BASE}/999999999`, { body: { name: "x" } }),
      404,
      "NOT_FOUND",
    );
    expect(issuePaths(await api("PATCH", `${BASE}/1.5`, { body: { name: "x" } }))).toEqual([
      "path.id",
    ]);
  });

  it("has no DELETE: promotions are archived instead", async () => {
    const promotion = await createPromotion();
    expectProblem(await api("DELETE", `${BASE}/${promotion.id}`), 405, "METHOD_NOT_ALLOWED");
  });
});

describe("promotions: list", () => {
  it("lists with links, searches by name, sorts by name, in one round trip", async () => {
    const tag = uid("PRL");
    const group = (await createCustomerGroup()).code;
    const a = await createPromotion({ name: `${tag} alpha`, customerGroupCodes: [group] });
    const b = await createPromotion({ name: `${tag} Beta` });
    const res = await api("GET", `${BASE}?search=${tag.toLowerCase()}&sortBy=name:ASC`, {
      key: KEYS.read,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    expect(res.body.data).toEqual([a, b]);
    expect(res.body.meta).toEqual({
      itemsPerPage: 20,
      totalItems: 2,
      currentPage: 1,
      totalPages: 1,
      sortBy: [["name", "ASC"]],
      search: tag.toLowerCase(),
      searchBy: ["name"],
    });
    const byId = await api("GET", `${BASE}?search=${tag}&sortBy=id:DESC&limit=1`);
    expect(byId.body.data).toEqual([b]);
    expect(byId.body.links.next).toBe(
      `http://pricing.test${BASE}?page=2&limit=1&sortBy=id:DESC&search=${tag}`,
    );
  });

  it("filters by status with $eq only", async () => {
    const tag = uid("PRF");
    const draft = await createPromotion({ name: tag });
    const active = await createPromotion({ name: tag, status: "ACTIVE" });
    const ids = async (query: string) =>
      (await api("GET", `${BASE}?search=${tag}&sortBy=id:ASC&${query}`)).body.data.map(
        (p: { id: number }) => p.id,
      );
    expect(await ids("filter.status=$eq:ACTIVE")).toEqual([active.id]);
    expect(await ids("filter.status=DRAFT")).toEqual([draft.id]);
    expect(await ids("")).toEqual([draft.id, active.id]);
    for (const query of [
      "filter.status=$not:DRAFT",
      "filter.status=draft",
      "filter.stacking=BEST_OF",
      "filter.validFrom=$gte:2025-01-01",
    ]) {
      expect(issuePaths(await api("GET", `${BASE}?${query}`))[0]).toMatch(/^query\.filter\./);
    }
    expect(issuePaths(await api("GET", `${BASE}?sortBy=priority:DESC`))).toEqual(["query.sortBy"]);
  });
});

describe("promotions: product groups and threshold", () => {
  it("takes productGroupCodes, sorted, replaced on PATCH; unknown codes → 400 and nothing written", async () => {
    const [g1, g2] = [await createProductGroup(), await createProductGroup()];
    const pr = await createPromotion({ productGroupCodes: [g2.code, g1.code] });
    expect(pr.productGroupCodes).toEqual([g1.code, g2.code].sort());
    const name = uid("PR");
    const res = await api("POST", BASE, {
      body: promotionBody({ name, productGroupCodes: ["NO-SUCH-GROUP"] }),
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.productGroupCodes", message: "unknown product group codes: NO-SUCH-GROUP" },
    ]);
    expect((await api("GET", `${BASE}?search=${name}`)).body.meta.totalItems).toBe(0);
    const patch = await api("PATCH", `${BASE}/${pr.id}`, {
      body: { value: 100, productGroupCodes: [g1.code, "NO-SUCH-GROUP"] },
    });
    expect(issuePaths(patch)).toEqual(["body.productGroupCodes"]);
    expect((await api("GET", `${BASE}/${pr.id}`)).body).toEqual(pr);
    const replaced = await api("PATCH", `${BASE}/${pr.id}`, { body: { productGroupCodes: [] } });
    expect(replaced.body.productGroupCodes).toEqual([]);
  });

  it("a group named by a promotion cannot be deleted: 409 naming it", async () => {
    const g = await createProductGroup();
    const pr = await createPromotion({ productGroupCodes: [g.code] });
    const res = await api("DELETE", `/v1/api/product-group/${g.code}`);
    expect(expectProblem(res, 409, "IN_USE").detail).toBe(
      `product group ${g.code} is still named by 1 promotion (${pr.id}); remove it from them first`,
    );
  });

  it("takes a QUANTITY threshold, and a VALUE one with a currency (PERCENTAGE too)", async () => {
    const qty = await createPromotion({ threshold: { basis: "QUANTITY", minimum: 1000 } });
    expect(qty.threshold).toEqual({ basis: "QUANTITY", minimum: 1000 });
    expect(qty.currency).toBeNull();

    const noCurrency = await api("POST", BASE, {
      body: promotionBody({ threshold: { basis: "VALUE", minimum: 10000 } }),
    });
    expect(expectProblem(noCurrency, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.currency", message: "is required when threshold.basis is VALUE" },
    ]);
    const value = await createPromotion({
      currency: "EUR",
      threshold: { basis: "VALUE", minimum: 10000 },
    });
    expect(value).toMatchObject({
      discountType: "PERCENTAGE",
      currency: "EUR",
      threshold: { basis: "VALUE", minimum: 10000 },
    });
    // The merged record: a QUANTITY threshold leaves a PERCENTAGE with a currency.
    const toQty = await api("PATCH", `${BASE}/${value.id}`, {
      body: { threshold: { basis: "QUANTITY", minimum: 5 } },
    });
    expect(expectProblem(toQty, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.currency", message: "must be absent or null for PERCENTAGE values" },
    ]);
    const removed = await api("PATCH", `${BASE}/${value.id}`, {
      body: { threshold: null, currency: null },
    });
    expect(removed.body).toMatchObject({ threshold: null, currency: null });
    const again = await api("PATCH", `${BASE}/${qty.id}`, {
      body: { threshold: { basis: "VALUE", minimum: 1 }, currency: "EUR" },
    });
    expect(again.body).toMatchObject({
      threshold: { basis: "VALUE", minimum: 1 },
      currency: "EUR",
    });
  });

  it("validates the threshold's fields", async () => {
    const res = await api("POST", BASE, {
      body: promotionBody({ threshold: { basis: "WEIGHT", minimum: 0, extra: 1 } }),
    });
    expect(issuePaths(res).sort()).toEqual([
      "body.threshold.basis",
      "body.threshold.extra",
      "body.threshold.minimum",
    ]);
    const missing = await api("POST", BASE, {
      body: promotionBody({ threshold: { basis: "QUANTITY" } }),
    });
    expect(issuePaths(missing)).toEqual(["body.threshold.minimum"]);
  });
});
