import { describe, expect, it } from "vitest";
import {
  createChannel,
  createProduct,
  createProductGroup,
  createTradeCondition,
  tradeConditionBody,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";

const BASE = "/v1/api/trade-conditions";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("trade conditions: create and read", () => {
  it("creates a condition with links and scales, and reads it back", async () => {
    const [pB, pA] = [await createProduct(), await createProduct()];
    const [chB, chA] = [(await createChannel()).code, (await createChannel()).code];
    const res = await api("POST", BASE, {
      body: {
        name: "  Web bulk  ",
        scope: "CHANNEL",
        type: "DISCOUNT",
        discountType: "PERCENTAGE",
        value: 300,
        status: "ACTIVE",
        validFrom: "2025-01-01",
        validTo: "2026-01-01T00:00:00Z",
        priority: 5,
        stackable: true,
        productCodes: [pB.code, pA.code, pB.code],
        channelCodes: [chB, chA],
        // `minimum`, or its deprecated name `minQuantity`: old clients keep working.
        scales: [
          { minimum: 50, value: 700 },
          { minQuantity: 10, value: 500 },
        ],
      },
    });
    expect(res.status).toBe(201);
    // One read resolves the codes, one batch writes the condition, its links and reads it back.
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="2 queries"/);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Web bulk",
      scope: "CHANNEL",
      status: "ACTIVE",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 300,
      currency: null,
      priceUnit: 1,
      validFrom: "2025-01-01T00:00:00.000Z",
      validTo: "2026-01-01T00:00:00.000Z",
      priority: 5,
      stackable: true,
      productCodes: [pA.code, pB.code].sort(),
      productGroupCodes: [],
      brandCodes: [],
      channelCodes: [chA, chB].sort(),
      scaleBasis: "LINE_QUANTITY",
      // A LINE_QUANTITY condition also shows the deprecated minQuantity, the same number.
      scales: [
        { minimum: 10, value: 500, minQuantity: 10 },
        { minimum: 50, value: 700, minQuantity: 50 },
      ],
      customerGroupCodes: [],
      customerCodes: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const read = await api("GET", `${BASE}/${res.body.id}`, { key: KEYS.read });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it("applies the defaults: DRAFT, priority 0, not stackable, no links, open window", async () => {
    const res = await api("POST", BASE, {
      body: {
        name: "Surcharge",
        scope: "GLOBAL",
        type: "SURCHARGE",
        discountType: "ABSOLUTE",
        value: 0,
        currency: "EUR",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "DRAFT",
      priority: 0,
      stackable: false,
      currency: "EUR",
      value: 0,
      validFrom: null,
      validTo: null,
      productCodes: [],
      channelCodes: [],
      scales: [],
    });
  });

  it("makes a NET_PRICE condition ABSOLUTE by default and refuses PERCENTAGE for it", async () => {
    const net = await createTradeCondition({
      type: "NET_PRICE",
      discountType: undefined,
      value: 999,
      currency: "EUR",
    });
    expect(net).toMatchObject({ type: "NET_PRICE", discountType: "ABSOLUTE", value: 999 });
    const res = await api("POST", BASE, { body: tradeConditionBody({ type: "NET_PRICE" }) });
    expect(issuePaths(res)).toEqual(["body.discountType"]);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const res = await api("GET", `${BASE}/999999999`);
    expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe("trade condition 999999999 not found");
    expect(issuePaths(await api("GET", `${BASE}/abc`))).toEqual(["path.id"]);
    expect(issuePaths(await api("GET", `${BASE}/0`))).toEqual(["path.id"]);
  });

  it("requires a key (401) and an admin key to write (403)", async () => {
    expectProblem(await api("GET", BASE, { key: null }), 401, "UNAUTHORIZED");
    expectProblem(await api("GET", `${BASE}/1`, { key: null }), 401, "UNAUTHORIZED");
    expectProblem(
      await api("POST", BASE, { key: null, body: tradeConditionBody() }),
      401,
      "UNAUTHORIZED",
    );
    expectProblem(
      await api("POST", BASE, { key: KEYS.read, body: tradeConditionBody() }),
      403,
      "FORBIDDEN",
    );
    const tc = await createTradeCondition();
    expectProblem(
      await api("PATCH", `${BASE}/${tc.id}`, { key: KEYS.read, body: { name: "x" } }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("PATCH", `${BASE}/${tc.id}`, { key: null, body: { name: "x" } }),
      401,
      "UNAUTHORIZED",
    );
  });
});

describe("trade conditions: validation", () => {
  it("refuses wrong types, unknown fields and missing fields, naming each", async () => {
    const res = await api("POST", BASE, {
      body: { name: "", scope: "EVERYONE", type: "DISCOUNT", value: 1.5, extra: true },
    });
    expect(issuePaths(res).sort()).toEqual(["body.extra", "body.name", "body.scope", "body.value"]);
    const status = await api("POST", BASE, { body: tradeConditionBody({ status: "INACTIVE" }) });
    expect(issuePaths(status)).toEqual(["body.status"]);
  });

  it("requires discountType unless NET_PRICE", async () => {
    const res = await api("POST", BASE, { body: tradeConditionBody({ discountType: undefined }) });
    expect(issuePaths(res)).toEqual(["body.discountType"]);
  });

  it("checks PERCENTAGE values 1-10000 without currency", async () => {
    for (const value of [0, 10_001, -5]) {
      expect(issuePaths(await api("POST", BASE, { body: tradeConditionBody({ value }) }))).toEqual([
        "body.value",
      ]);
    }
    expect((await api("POST", BASE, { body: tradeConditionBody({ value: 10_000 }) })).status).toBe(
      201,
    );
    expect((await api("POST", BASE, { body: tradeConditionBody({ value: 1 }) })).status).toBe(201);
    const res = await api("POST", BASE, { body: tradeConditionBody({ currency: "EUR" }) });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.currency", message: "must be absent or null for PERCENTAGE values" },
    ]);
  });

  it("checks ABSOLUTE values >= 0 with a currency", async () => {
    const abs = { discountType: "ABSOLUTE", currency: "EUR" };
    expect(
      issuePaths(await api("POST", BASE, { body: tradeConditionBody({ ...abs, value: -1 }) })),
    ).toEqual(["body.value"]);
    expect(
      issuePaths(
        await api("POST", BASE, { body: tradeConditionBody({ ...abs, currency: undefined }) }),
      ),
    ).toEqual(["body.currency"]);
    expect(
      issuePaths(
        await api("POST", BASE, { body: tradeConditionBody({ ...abs, currency: "eur" }) }),
      ),
    ).toEqual(["body.currency"]);
    expect(
      (await api("POST", BASE, { body: tradeConditionBody({ ...abs, value: 50_000 }) })).status,
    ).toBe(201);
  });

  it("needs a channel for CHANNEL scope", async () => {
    const res = await api("POST", BASE, { body: tradeConditionBody({ scope: "CHANNEL" }) });
    expect(issuePaths(res)).toEqual(["body.channelCodes"]);
  });

  it("checks scales: distinct minimum >= 1, values of the discount type", async () => {
    const res = await api("POST", BASE, {
      body: tradeConditionBody({
        scales: [
          { minimum: 10, value: 500 },
          { minQuantity: 10, value: 600 },
          { minimum: 20, value: 20_000 },
        ],
      }),
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.scales.1.minimum", message: "repeats minimum 10" },
      {
        path: "body.scales.2.value",
        message: "must be 1-10000 basis points for a PERCENTAGE value",
      },
    ]);
    const zero = await api("POST", BASE, {
      body: tradeConditionBody({ scales: [{ minQuantity: 0, value: 100 }] }),
    });
    expect(issuePaths(zero)).toEqual(["body.scales.0.minQuantity"]);
    const absolute = await api("POST", BASE, {
      body: tradeConditionBody({
        discountType: "ABSOLUTE",
        currency: "EUR",
        scales: [{ minQuantity: 5, value: -1 }],
      }),
    });
    expect(issuePaths(absolute)).toEqual(["body.scales.0.value"]);
  });

  it("needs validFrom before validTo", async () => {
    const res = await api("POST", BASE, {
      body: tradeConditionBody({ validFrom: "2025-06-01", validTo: "2025-06-01T00:00:00Z" }),
    });
    expect(issuePaths(res)).toEqual(["body.validTo"]);
    const bad = await api("POST", BASE, { body: tradeConditionBody({ validFrom: "2025-13-01" }) });
    expect(issuePaths(bad)).toEqual(["body.validFrom"]);
  });

  it("reports every cross-field issue at once", async () => {
    const res = await api("POST", BASE, {
      body: tradeConditionBody({
        scope: "CHANNEL",
        value: 0,
        currency: "EUR",
        validFrom: "2026-01-01",
        validTo: "2025-01-01",
      }),
    });
    expect(issuePaths(res).sort()).toEqual([
      "body.channelCodes",
      "body.currency",
      "body.validTo",
      "body.value",
    ]);
  });

  it("refuses unknown product and channel codes, naming them, and writes nothing", async () => {
    const before = (await api("GET", `${BASE}?limit=1`)).body.meta.totalItems;
    const product = await createProduct();
    const channel = (await createChannel()).code;
    const res = await api("POST", BASE, {
      body: tradeConditionBody({
        scope: "CHANNEL",
        productCodes: [product.code, "NOPE-P1"],
        channelCodes: [channel, "NOPE-CH1", "NOPE-CH2"],
      }),
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.productCodes", message: "unknown product codes: NOPE-P1" },
      { path: "body.channelCodes", message: "unknown channel codes: NOPE-CH1, NOPE-CH2" },
    ]);
    const one = await api("POST", BASE, {
      body: tradeConditionBody({ channelCodes: ["NOPE-CH3"] }),
    });
    expect(issuePaths(one)).toEqual(["body.channelCodes"]);
    expect((await api("GET", `${BASE}?limit=1`)).body.meta.totalItems).toBe(before);
  });
});

describe("trade conditions: update", () => {
  it("updates a subset of fields and replaces the given links", async () => {
    const [p1, p2] = [await createProduct(), await createProduct()];
    const [c1, c2] = [(await createChannel()).code, (await createChannel()).code];
    const tc = await createTradeCondition({
      productCodes: [p1.code],
      channelCodes: [c1],
      scales: [{ minQuantity: 10, value: 600 }],
    });
    const res = await api("PATCH", `${BASE}/${tc.id}`, {
      body: {
        name: "Renamed",
        status: "ACTIVE",
        productCodes: [p2.code],
        scales: [{ minQuantity: 100, value: 900 }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="2 queries"/);
    expect(res.body).toEqual({
      ...tc,
      name: "Renamed",
      status: "ACTIVE",
      productCodes: [p2.code],
      channelCodes: [c1],
      scales: [{ minimum: 100, value: 900, minQuantity: 100 }],
      updatedAt: expect.stringMatching(ISO),
    });
    expect((await api("GET", `${BASE}/${tc.id}`)).body).toEqual(res.body);

    const cleared = await api("PATCH", `${BASE}/${tc.id}`, {
      body: { channelCodes: [c2, c1], productCodes: [], scales: [] },
    });
    expect(cleared.body).toMatchObject({
      productCodes: [],
      channelCodes: [c1, c2].sort(),
      scales: [],
    });
  });

  it("returns the record unchanged for an empty body", async () => {
    const tc = await createTradeCondition();
    const res = await api("PATCH", `${BASE}/${tc.id}`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(tc);
  });

  it("switches discount type with the currency, and clears the window with null", async () => {
    const tc = await createTradeCondition({ validFrom: "2025-01-01", validTo: "2025-02-01" });
    const res = await api("PATCH", `${BASE}/${tc.id}`, {
      body: { discountType: "ABSOLUTE", value: 150, currency: "EUR", validTo: null },
    });
    expect(res.body).toMatchObject({
      discountType: "ABSOLUTE",
      value: 150,
      currency: "EUR",
      validFrom: "2025-01-01T00:00:00.000Z",
      validTo: null,
    });
  });

  it("re-validates the merged record", async () => {
    const tc = await createTradeCondition({ scales: [{ minQuantity: 5, value: 100 }] });
    const path = `${BASE}/${tc.id}`;
    expect(issuePaths(await api("PATCH", path, { body: { discountType: "ABSOLUTE" } }))).toEqual([
      "body.currency",
    ]);
    expect(issuePaths(await api("PATCH", path, { body: { currency: "EUR" } }))).toEqual([
      "body.currency",
    ]);
    expect(issuePaths(await api("PATCH", path, { body: { value: 20_000 } }))).toEqual([
      "body.value",
    ]);
    expect(issuePaths(await api("PATCH", path, { body: { scope: "CHANNEL" } }))).toEqual([
      "body.channelCodes",
    ]);
    expect(issuePaths(await api("PATCH", path, { body: { type: "NET_PRICE" } }))).toEqual([
      "body.discountType",
    ]);
    expect(
      issuePaths(
        await api("PATCH", path, { body: { validFrom: "2030-01-01", validTo: "2029-01-01" } }),
      ),
    ).toEqual(["body.validTo"]);
    expect(
      issuePaths(await api("PATCH", path, { body: { productCodes: ["NOPE-P9"], extra: 1 } })),
    ).toEqual(["body.extra"]);
    expect(issuePaths(await api("PATCH", path, { body: { productCodes: ["NOPE-P9"] } }))).toEqual([
      "body.productCodes",
    ]);
    // Nothing of the refused patches was written.
    expect((await api("GET", path)).body).toEqual(tc);
  });

  it("follows the status transitions and freezes ARCHIVED records", async () => {
    const tc = await createTradeCondition();
    const path = `${BASE}/${tc.id}`;
    const skip = await api("PATCH", path, { body: { status: "INACTIVE" } });
    expect(expectProblem(skip, 409, "INVALID_STATUS_TRANSITION").detail).toContain(
      "from DRAFT to INACTIVE",
    );
    for (const status of ["ACTIVE", "INACTIVE", "ACTIVE", "ARCHIVED"]) {
      const res = await api("PATCH", path, { body: { status } });
      expect(res.body.status).toBe(status);
    }
    const edit = await api("PATCH", path, { body: { name: "Too late" } });
    expect(expectProblem(edit, 409, "CONFLICT").detail).toBe(
      `trade condition ${tc.id} is ARCHIVED and can no longer be edited`,
    );
    expectProblem(await api("PATCH", path, { body: { status: "ACTIVE" } }), 409, "CONFLICT");
    expect((await api("GET", path)).body.name).toBe(tc.name);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    expectProblem(
      await api("PATCH", `${BASE}/999999999`, { body: { name: "x" } }),
      404,
      "NOT_FOUND",
    );
    expect(issuePaths(await api("PATCH", `${BASE}/x1`, { body: { name: "x" } }))).toEqual([
      "path.id",
    ]);
  });

  it("has no DELETE: conditions are archived instead", async () => {
    const tc = await createTradeCondition();
    expectProblem(await api("DELETE", `${BASE}/${tc.id}`), 405, "METHOD_NOT_ALLOWED");
  });
});

describe("trade conditions: list", () => {
  it("lists with links and scales in one round trip", async () => {
    const tag = uid("TCL");
    const product = await createProduct();
    const channel = (await createChannel()).code;
    const a = await createTradeCondition({
      name: `${tag} a`,
      productCodes: [product.code],
      channelCodes: [channel],
      scales: [{ minQuantity: 3, value: 800 }],
    });
    const b = await createTradeCondition({ name: `${tag} B` });
    const res = await api("GET", `${BASE}?search=${tag.toLowerCase()}&sortBy=name:DESC`, {
      key: KEYS.read,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    expect(res.body.data).toEqual([b, a]);
    expect(res.body.meta).toEqual({
      itemsPerPage: 20,
      totalItems: 2,
      currentPage: 1,
      totalPages: 1,
      sortBy: [["name", "DESC"]],
      search: tag.toLowerCase(),
      searchBy: ["name"],
    });
  });

  it("filters by scope, status, type and discountType", async () => {
    const tag = uid("TCF");
    const channel = (await createChannel()).code;
    const a = await createTradeCondition({ name: tag, status: "ACTIVE" });
    const b = await createTradeCondition({
      name: tag,
      scope: "CHANNEL",
      channelCodes: [channel],
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      currency: "EUR",
    });
    const c = await createTradeCondition({
      name: tag,
      scope: "CUSTOMER_GROUP",
      type: "NET_PRICE",
      discountType: "ABSOLUTE",
      currency: "EUR",
    });
    const ids = async (query: string) => {
      const res = await api("GET", `${BASE}?search=${tag}&sortBy=id:ASC&${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((tc: { id: number }) => tc.id);
    };
    expect(await ids("filter.scope=$eq:CHANNEL")).toEqual([b.id]);
    expect(await ids("filter.scope=CUSTOMER_GROUP")).toEqual([c.id]);
    expect(await ids("filter.status=$eq:ACTIVE")).toEqual([a.id]);
    expect(await ids("filter.status=DRAFT")).toEqual([b.id, c.id]);
    expect(await ids("filter.type=$eq:SURCHARGE")).toEqual([b.id]);
    expect(await ids("filter.type=NET_PRICE")).toEqual([c.id]);
    expect(await ids("filter.discountType=$eq:ABSOLUTE")).toEqual([b.id, c.id]);
    expect(await ids("filter.discountType=PERCENTAGE")).toEqual([a.id]);
    expect(await ids("filter.discountType=ABSOLUTE&filter.type=SURCHARGE")).toEqual([b.id]);

    const meta = (await api("GET", `${BASE}?search=${tag}&filter.scope=CHANNEL`)).body.meta;
    expect(meta.filter).toEqual({ scope: "CHANNEL" });
  });

  it("filters validFrom and validTo with $gte and $lte on dates and instants", async () => {
    const tag = uid("TCW");
    const early = await createTradeCondition({
      name: tag,
      validFrom: "2025-01-01",
      validTo: "2025-06-01",
    });
    const late = await createTradeCondition({
      name: tag,
      validFrom: "2025-07-01T12:00:00+02:00",
      validTo: "2026-01-01",
    });
    const open = await createTradeCondition({ name: tag });
    const ids = async (query: string) =>
      (await api("GET", `${BASE}?search=${tag}&sortBy=id:ASC&${query}`)).body.data.map(
        (tc: { id: number }) => tc.id,
      );
    expect(await ids("filter.validFrom=$gte:2025-02-01")).toEqual([late.id]);
    expect(await ids("filter.validFrom=$gte:2025-01-01")).toEqual([early.id, late.id]);
    expect(await ids("filter.validFrom=$lte:2025-01-01T00:00:00Z")).toEqual([early.id]);
    expect(await ids("filter.validFrom=$lte:2025-07-01T10:00:00Z")).toEqual([early.id, late.id]);
    expect(await ids("filter.validFrom=$lte:2025-07-01T09:59:59Z")).toEqual([early.id]);
    expect(await ids("filter.validTo=$gte:2025-06-02")).toEqual([late.id]);
    expect(await ids("filter.validTo=$lte:2025-06-01")).toEqual([early.id]);
    expect(await ids("filter.validFrom=$gte:2024-01-01&filter.validTo=$lte:2025-12-31")).toEqual([
      early.id,
    ]);
    // Null windows match no comparison.
    expect(await ids("filter.validTo=$gte:2000-01-01")).not.toContain(open.id);
  });

  it("refuses filters, operators and sorts the seed does not allow", async () => {
    for (const query of [
      "filter.scope=$not:GLOBAL",
      "filter.validFrom=$gt:2025-01-01",
      "filter.validFrom=$gte:yesterday",
      "filter.type=discount",
      "filter.priority=1",
      "filter.discountType=$in:PERCENTAGE,ABSOLUTE",
    ]) {
      expect(issuePaths(await api("GET", `${BASE}?${query}`))[0]).toMatch(/^query\.filter\./);
    }
    expect(issuePaths(await api("GET", `${BASE}?sortBy=priority:ASC`))).toEqual(["query.sortBy"]);
    expect(issuePaths(await api("GET", `${BASE}?searchBy=scope&search=x`))).toEqual([
      "query.searchBy",
    ]);
  });

  it("narrows to one channel with x-channel, still in one round trip", async () => {
    const tag = uid("TCX");
    const [web, shop] = [(await createChannel()).code, (await createChannel()).code];
    const all = await createTradeCondition({ name: tag });
    const webOnly = await createTradeCondition({ name: tag, channelCodes: [web] });
    const both = await createTradeCondition({
      name: tag,
      scope: "CHANNEL",
      channelCodes: [web, shop],
    });
    const shopOnly = await createTradeCondition({ name: tag, channelCodes: [shop] });
    const list = (channel?: string) =>
      api("GET", `${BASE}?search=${tag}&sortBy=id:ASC`, {
        headers: channel ? { "x-channel": channel } : {},
      });
    const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((tc) => tc.id);

    const inWeb = await list(web);
    expect(inWeb.status).toBe(200);
    expect(ids(inWeb)).toEqual([all.id, webOnly.id, both.id]);
    expect(inWeb.body.meta.totalItems).toBe(3);
    expect(inWeb.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    expect(ids(await list(shop))).toEqual([all.id, both.id, shopOnly.id]);
    expect(ids(await list())).toEqual([all.id, webOnly.id, both.id, shopOnly.id]);

    const unknown = await list("NOPE-CHANNEL");
    expect(expectProblem(unknown, 404, "NOT_FOUND").detail).toBe("channel NOPE-CHANNEL not found");
    expect(issuePaths(await list("bad code!"))).toEqual(["header.x-channel"]);
  });
});

describe("trade conditions: OpenAPI", () => {
  it("documents x-channel as an optional header of the list", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    const list = doc.paths["/v1/api/trade-conditions"].get;
    expect(list.parameters).toContainEqual(
      expect.objectContaining({ name: "x-channel", in: "header", required: false }),
    );
    expect(Object.keys(list.responses).sort()).toEqual(["200", "400", "401", "404", "429"]);
    expect(doc.paths["/v1/api/trade-conditions/{id}"].patch.operationId).toBe(
      "updateTradeCondition",
    );
  });
});

describe("trade conditions: product groups, scale basis and scale rows", () => {
  it("takes productGroupCodes, sorted, replaced on PATCH; unknown codes → 400 and nothing written", async () => {
    const [g1, g2] = [await createProductGroup(), await createProductGroup()];
    const tc = await createTradeCondition({ productGroupCodes: [g2.code, g1.code, g2.code] });
    expect(tc.productGroupCodes).toEqual([g1.code, g2.code].sort());
    const replaced = await api("PATCH", `${BASE}/${tc.id}`, {
      body: { productGroupCodes: [g1.code] },
    });
    expect(replaced.body.productGroupCodes).toEqual([g1.code]);

    const name = uid("TC");
    const res = await api("POST", BASE, {
      body: tradeConditionBody({ name, productGroupCodes: [g1.code, "NO-SUCH-GROUP"] }),
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.productGroupCodes", message: "unknown product group codes: NO-SUCH-GROUP" },
    ]);
    const listed = await api("GET", `${BASE}?search=${name}`);
    expect(listed.body.meta.totalItems).toBe(0);
    const patch = await api("PATCH", `${BASE}/${tc.id}`, {
      body: { name: "Not written", productGroupCodes: ["NO-SUCH-GROUP"] },
    });
    expect(issuePaths(patch)).toEqual(["body.productGroupCodes"]);
    expect((await api("GET", `${BASE}/${tc.id}`)).body).toEqual(replaced.body);
    const many = await api("POST", BASE, {
      body: tradeConditionBody({
        productGroupCodes: Array.from({ length: 1001 }, (_, i) => `G-${i}`),
      }),
    });
    expect(issuePaths(many)).toEqual(["body.productGroupCodes"]);
  });

  it("a group named by a condition cannot be deleted: 409 naming the condition", async () => {
    const g = await createProductGroup();
    const tc = await createTradeCondition({ productGroupCodes: [g.code] });
    const res = await api("DELETE", `/v1/api/product-group/${g.code}`);
    expect(expectProblem(res, 409, "IN_USE").detail).toBe(
      `product group ${g.code} is still named by 1 trade condition (${tc.id}); ` +
        "remove it from them first",
    );
    await api("PATCH", `${BASE}/${tc.id}`, { body: { productGroupCodes: [] } });
    expect((await api("DELETE", `/v1/api/product-group/${g.code}`)).status).toBe(204);
  });

  it("defaults scaleBasis to LINE_QUANTITY; other bases answer minimum alone", async () => {
    const line = await createTradeCondition({ scales: [{ minimum: 5, value: 600 }] });
    expect(line.scaleBasis).toBe("LINE_QUANTITY");
    expect(line.scales).toEqual([{ minimum: 5, value: 600, minQuantity: 5 }]);
    const order = await createTradeCondition({
      scaleBasis: "ORDER_QUANTITY",
      scales: [{ minimum: 1000, value: 200 }],
    });
    expect(order).toMatchObject({
      scaleBasis: "ORDER_QUANTITY",
      scales: [{ minimum: 1000, value: 200 }],
    });
    const switched = await api("PATCH", `${BASE}/${line.id}`, {
      body: { scaleBasis: "ORDER_QUANTITY" },
    });
    expect(switched.body.scales).toEqual([{ minimum: 5, value: 600 }]);
  });

  it("ORDER_VALUE needs the currency, which a PERCENTAGE condition may then have", async () => {
    const res = await api("POST", BASE, {
      body: tradeConditionBody({
        scaleBasis: "ORDER_VALUE",
        scales: [{ minimum: 100_000, value: 300 }],
      }),
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.currency", message: "is required when scaleBasis is ORDER_VALUE" },
    ]);
    const ok = await createTradeCondition({
      scaleBasis: "ORDER_VALUE",
      currency: "EUR",
      scales: [{ minimum: 100_000, value: 300 }],
    });
    expect(ok).toMatchObject({
      discountType: "PERCENTAGE",
      currency: "EUR",
      scaleBasis: "ORDER_VALUE",
      scales: [{ minimum: 100_000, value: 300 }],
    });
    // The merged record: leaving ORDER_VALUE with the currency kept is a PERCENTAGE with a
    // currency again; dropping the currency under ORDER_VALUE is one without.
    const back = await api("PATCH", `${BASE}/${ok.id}`, { body: { scaleBasis: "LINE_QUANTITY" } });
    expect(expectProblem(back, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.currency", message: "must be absent or null for PERCENTAGE values" },
    ]);
    const dropped = await api("PATCH", `${BASE}/${ok.id}`, { body: { currency: null } });
    expect(issuePaths(dropped)).toEqual(["body.currency"]);
    const both = await api("PATCH", `${BASE}/${ok.id}`, {
      body: { scaleBasis: "LINE_QUANTITY", currency: null },
    });
    expect(both.body).toMatchObject({ scaleBasis: "LINE_QUANTITY", currency: null });
    expect(
      issuePaths(await api("POST", BASE, { body: tradeConditionBody({ scaleBasis: "VALUE" }) })),
    ).toEqual(["body.scaleBasis"]);
  });

  it("scale rows take exactly one of minimum and minQuantity", async () => {
    const res = await api("POST", BASE, {
      body: tradeConditionBody({
        scales: [
          { minimum: 10, minQuantity: 10, value: 500 },
          { value: 600 },
          { minimum: 0, value: 700 },
          { minimum: 20, value: 700, extra: 1 },
        ],
      }),
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.scales.0.minQuantity",
        message: "must be absent when minimum is given (minQuantity is its deprecated name)",
      },
      { path: "body.scales.1.minimum", message: "is required (or, deprecated, minQuantity)" },
      { path: "body.scales.2.minimum", message: "must be at least 1" },
      { path: "body.scales.3.extra", message: "is not a known field" },
    ]);
  });
});
