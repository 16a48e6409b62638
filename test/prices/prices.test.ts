import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  createCustomer,
  createIndividualPricelist,
  createPricelist,
  createProduct,
  setPricelistStatus,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, roundTrips, uid } from "../shared/helpers";
import { countRows } from "../shared/reads";

const pricesPath = (id: number, query = "") => `/v1/api/pricelist/${id}/prices${query}`;
const deletePath = (id: number) => `/v1/api/pricelist/${id}/prices/delete`;

type Row = { productCode: string; minQuantity?: number; amount: number };
const put = (id: number, prices: Row[], key?: string) =>
  api("PUT", pricesPath(id), { body: { prices }, key });

/** Every price of the pricelist through the API, in the default order. */
/** The stored rows; a row's window is shown only when it has one (undated rows are most). */
async function sheet(id: number) {
  const res = await api("GET", pricesPath(id, "?limit=100"), { key: KEYS.read });
  expect(res.status).toBe(200);
  return (
    res.body.data as (Required<Row> & {
      priceUnit: number;
      flatAmount: number;
      validFrom: string | null;
      validTo: string | null;
    })[]
  ).map(({ validFrom, validTo, priceUnit, flatAmount, ...row }) => ({
    ...row,
    // Per piece unless said (docs/pricing-rules.md §20).
    ...(priceUnit === 1 ? {} : { priceUnit }),
    // No flat amount unless said (docs/pricing-rules.md §29).
    ...(flatAmount === 0 ? {} : { flatAmount }),
    ...(validFrom === null ? {} : { validFrom }),
    ...(validTo === null ? {} : { validTo }),
  }));
}

/** Creates `n` products with one call per product and returns their codes (sorted). */
async function products(n: number) {
  const codes: string[] = [];
  for (let i = 0; i < n; i++) codes.push((await createProduct()).code);
  return codes.sort();
}

/** Many products straight into D1 in one statement: the 1000-row tests need them fast. */
async function bulkProducts(n: number) {
  const prefix = uid("BULK");
  const codes = Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(4, "0")}`);
  await env.DB.prepare("insert into products (code, name) select value, 'Bulk' from json_each(?)")
    .bind(JSON.stringify(codes))
    .run();
  return codes;
}

describe("PUT /v1/api/pricelist/{id}/prices", () => {
  it("upserts rows with minQuantity defaulting to 1 and reads them back as a sheet", async () => {
    const pl = await createPricelist();
    const [a, b] = await products(2);
    const res = await put(pl.id, [
      { productCode: b!, amount: 899 },
      { productCode: a!, minQuantity: 10, amount: 1100 },
      { productCode: a!, amount: 1250 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ upserted: 3, closed: 0 });
    expect(roundTrips(res)).toBeLessThanOrEqual(3);
    expect(await sheet(pl.id)).toEqual([
      { productCode: a, minQuantity: 1, amount: 1250 },
      { productCode: a, minQuantity: 10, amount: 1100 },
      { productCode: b, minQuantity: 1, amount: 899 },
    ]);
  });

  it("overwrites the amount of existing (product, minQuantity) rows and keeps the others", async () => {
    const pl = await createPricelist();
    const [a, b] = await products(2);
    await put(pl.id, [
      { productCode: a!, amount: 1000 },
      { productCode: a!, minQuantity: 5, amount: 900 },
      { productCode: b!, amount: 500 },
    ]);
    const res = await put(pl.id, [
      { productCode: a!, minQuantity: 1, amount: 1111 },
      { productCode: b!, minQuantity: 20, amount: 400 },
    ]);
    expect(res.body).toEqual({ upserted: 2, closed: 0 });
    expect(await sheet(pl.id)).toEqual([
      { productCode: a, minQuantity: 1, amount: 1111 },
      { productCode: a, minQuantity: 5, amount: 900 },
      { productCode: b, minQuantity: 1, amount: 500 },
      { productCode: b, minQuantity: 20, amount: 400 },
    ]);
    // The same body again is harmless: same rows, same count.
    const again = await put(pl.id, [
      { productCode: a!, minQuantity: 1, amount: 1111 },
      { productCode: b!, minQuantity: 20, amount: 400 },
    ]);
    expect(again.body).toEqual({ upserted: 2, closed: 0 });
    expect(await countRows("pricelist_prices", "pricelist_id", pl.id)).toBe(4);
  });

  it("accepts amount 0 and the largest safe integer, on DRAFT, ACTIVE, INACTIVE and INDIVIDUAL lists", async () => {
    const [a] = await products(1);
    const customer = await createCustomer();
    const lists = [
      await createPricelist(),
      await createPricelist({ status: "ACTIVE" }),
      await createIndividualPricelist(customer.code),
    ];
    const inactive = await createPricelist({ status: "ACTIVE" });
    await setPricelistStatus(inactive.id, "INACTIVE");
    lists.push(inactive);
    for (const pl of lists) {
      const res = await put(pl.id, [
        { productCode: a!, amount: 0 },
        { productCode: a!, minQuantity: 2, amount: Number.MAX_SAFE_INTEGER },
      ]);
      expect(res.body).toEqual({ upserted: 2, closed: 0 });
      expect(await sheet(pl.id)).toEqual([
        { productCode: a, minQuantity: 1, amount: 0 },
        { productCode: a, minQuantity: 2, amount: Number.MAX_SAFE_INTEGER },
      ]);
    }
  });

  it("writes 1000 rows in at most 3 round trips", async () => {
    const pl = await createPricelist();
    const codes = await bulkProducts(500);
    const rows = codes.flatMap((productCode, i) => [
      { productCode, amount: 1000 + i },
      { productCode, minQuantity: 10, amount: 900 + i },
    ]);
    const res = await put(pl.id, rows);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ upserted: 1000, closed: 0 });
    expect(roundTrips(res)).toBeLessThanOrEqual(3);
    expect(await countRows("pricelist_prices", "pricelist_id", pl.id)).toBe(1000);
    const last = await api("GET", pricesPath(pl.id, "?limit=2&page=500"));
    expect(last.body.data).toEqual([
      {
        productCode: codes[499],
        minQuantity: 1,
        amount: 1499,
        priceUnit: 1,
        flatAmount: 0,
        validFrom: null,
        validTo: null,
      },
      {
        productCode: codes[499],
        minQuantity: 10,
        amount: 1399,
        priceUnit: 1,
        flatAmount: 0,
        validFrom: null,
        validTo: null,
      },
    ]);
    expect(last.body.meta.totalItems).toBe(1000);

    // Overwriting all 1000 at once also stays within the budget.
    const again = await put(
      pl.id,
      rows.map((r) => ({ ...r, amount: r.amount + 1 })),
    );
    expect(again.body).toEqual({ upserted: 1000, closed: 0 });
    expect(roundTrips(again)).toBeLessThanOrEqual(3);
    expect(await countRows("pricelist_prices", "pricelist_id", pl.id)).toBe(1000);
  });

  it("is atomic: 999 good rows and one unknown product write nothing, and the 400 names it", async () => {
    const pl = await createPricelist();
    const codes = await bulkProducts(999);
    await put(pl.id, [{ productCode: codes[0]!, amount: 1 }]);
    const before = await sheet(pl.id);
    const rows: Row[] = codes.map((productCode) => ({ productCode, amount: 777 }));
    rows.splice(3, 0, { productCode: "NOPE-PRODUCT", amount: 5 });
    const res = await put(pl.id, rows);
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors).toEqual([
      { path: "body.prices", message: "unknown product codes: NOPE-PRODUCT" },
      { path: "body.prices.3.productCode", message: "unknown product NOPE-PRODUCT" },
    ]);
    expect(roundTrips(res)).toBe(1);
    expect(await sheet(pl.id)).toEqual(before);
    expect(await countRows("pricelist_prices", "pricelist_id", pl.id)).toBe(1);
  });

  it("lists every unknown code once, sorted, with a path per row", async () => {
    const pl = await createPricelist();
    const [a] = await products(1);
    const res = await put(pl.id, [
      { productCode: "ZZ-NOPE", amount: 1 },
      { productCode: a!, amount: 1 },
      { productCode: "AA-NOPE", amount: 1 },
      { productCode: "ZZ-NOPE", minQuantity: 5, amount: 1 },
    ]);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.prices", message: "unknown product codes: AA-NOPE, ZZ-NOPE" },
      { path: "body.prices.0.productCode", message: "unknown product ZZ-NOPE" },
      { path: "body.prices.2.productCode", message: "unknown product AA-NOPE" },
      { path: "body.prices.3.productCode", message: "unknown product ZZ-NOPE" },
    ]);
    expect(await sheet(pl.id)).toEqual([]);
  });

  it("refuses two rows with the same (productCode, minQuantity), naming them", async () => {
    const pl = await createPricelist();
    const [a] = await products(1);
    const res = await put(pl.id, [
      { productCode: a!, amount: 1 },
      { productCode: a!, minQuantity: 2, amount: 2 },
      { productCode: a!, minQuantity: 1, amount: 3 },
    ]);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.prices.2",
        message: `repeats productCode ${a} with minQuantity 1 of row 0`,
      },
    ]);
    expect(await sheet(pl.id)).toEqual([]);
  });

  it("validates rows and bodies, naming every field", async () => {
    const pl = await createPricelist();
    const path = pricesPath(pl.id);
    const bad = await api("PUT", path, {
      body: {
        prices: [
          { productCode: "bad code", amount: 1 },
          { productCode: "P", minQuantity: 0, amount: -1 },
          { productCode: "P", minQuantity: 1.5, amount: 1.25 },
          { productCode: "P", amount: "12" },
          { productCode: "P", amount: 1, currency: "EUR" },
          { minQuantity: 1 },
        ],
      },
    });
    expect(issuePaths(bad).sort()).toEqual(
      [
        "body.prices.0.productCode",
        "body.prices.1.minQuantity",
        "body.prices.1.amount",
        "body.prices.2.minQuantity",
        "body.prices.2.amount",
        "body.prices.3.amount",
        "body.prices.4.currency",
        "body.prices.5.productCode",
        "body.prices.5.amount",
      ].sort(),
    );
    expect(issuePaths(await api("PUT", path, { body: { prices: [] } }))).toEqual(["body.prices"]);
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ productCode: `P-${i}`, amount: 1 }));
    expect(issuePaths(await api("PUT", path, { body: { prices: tooMany } }))).toEqual([
      "body.prices",
    ]);
    expect(issuePaths(await api("PUT", path, { body: {} }))).toEqual(["body.prices"]);
    expect(
      issuePaths(
        await api("PUT", path, { body: { prices: [{ productCode: "P", amount: 1 }], x: 1 } }),
      ),
    ).toEqual(["body.x"]);
    expect(
      issuePaths(
        await api("PUT", "/v1/api/pricelist/abc/prices", {
          body: { prices: [{ productCode: "P", amount: 1 }] },
        }),
      ),
    ).toEqual(["path.id"]);
    expectProblem(
      await api("PUT", path, { raw: "{", headers: { "content-type": "application/json" } }),
      400,
      "MALFORMED_JSON",
    );
    expectProblem(
      await api("PUT", path, { raw: "prices", headers: { "content-type": "text/plain" } }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
  });

  it("404 for an unknown pricelist, 409 for an ARCHIVED one (nothing written), 401 and 403", async () => {
    const [a] = await products(1);
    const missing = await put(999_999_995, [{ productCode: a!, amount: 1 }]);
    expect(expectProblem(missing, 404, "NOT_FOUND").detail).toBe("pricelist 999999995 not found");
    // The pricelist is checked before the product codes.
    expectProblem(await put(999_999_995, [{ productCode: "NOPE", amount: 1 }]), 404, "NOT_FOUND");

    const archived = await createPricelist();
    await put(archived.id, [{ productCode: a!, amount: 1 }]);
    await setPricelistStatus(archived.id, "ARCHIVED");
    const res = await put(archived.id, [{ productCode: a!, amount: 2 }]);
    expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
      `pricelist ${archived.id} is ARCHIVED and can no longer be edited`,
    );
    expect(await sheet(archived.id)).toEqual([{ productCode: a, minQuantity: 1, amount: 1 }]);

    const pl = await createPricelist();
    expectProblem(await put(pl.id, [{ productCode: a!, amount: 1 }], KEYS.read), 403, "FORBIDDEN");
    expectProblem(
      await api("PUT", pricesPath(pl.id), { key: null, body: { prices: [] } }),
      401,
      "UNAUTHORIZED",
    );
    expect(await sheet(pl.id)).toEqual([]);
  });
});

describe("GET /v1/api/pricelist/{id}/prices", () => {
  it("pages, sorts and filters, with page, count and existence in one round trip", async () => {
    const pl = await createPricelist();
    const other = await createPricelist();
    const [a, b, c] = await products(3);
    await put(pl.id, [
      { productCode: c!, amount: 30 },
      { productCode: a!, minQuantity: 100, amount: 8 },
      { productCode: a!, amount: 10 },
      { productCode: b!, minQuantity: 5, amount: 19 },
      { productCode: b!, amount: 20 },
    ]);
    await put(other.id, [{ productCode: a!, amount: 99 }]);

    const res = await api("GET", pricesPath(pl.id, "?limit=2"), { key: KEYS.read });
    expect(res.status).toBe(200);
    expect(roundTrips(res)).toBe(1);
    expect(res.body.data).toEqual([
      {
        productCode: a,
        minQuantity: 1,
        amount: 10,
        priceUnit: 1,
        flatAmount: 0,
        validFrom: null,
        validTo: null,
      },
      {
        productCode: a,
        minQuantity: 100,
        amount: 8,
        priceUnit: 1,
        flatAmount: 0,
        validFrom: null,
        validTo: null,
      },
    ]);
    expect(res.body.meta).toEqual({
      itemsPerPage: 2,
      totalItems: 5,
      currentPage: 1,
      totalPages: 3,
      sortBy: [
        ["productCode", "ASC"],
        ["minQuantity", "ASC"],
        ["validFrom", "ASC"],
      ],
    });
    const base = `http://pricing.test${pricesPath(pl.id)}`;
    const sort = "sortBy=productCode:ASC&sortBy=minQuantity:ASC&sortBy=validFrom:ASC";
    expect(res.body.links).toEqual({
      current: `${base}?page=1&limit=2&${sort}`,
      next: `${base}?page=2&limit=2&${sort}`,
      last: `${base}?page=3&limit=2&${sort}`,
    });

    const byQuantity = await api(
      "GET",
      pricesPath(pl.id, "?sortBy=minQuantity:DESC,productCode:DESC"),
    );
    expect(byQuantity.body.data.map((r: Row) => [r.productCode, r.minQuantity])).toEqual([
      [a, 100],
      [b, 5],
      [c, 1],
      [b, 1],
      [a, 1],
    ]);

    const filtered = await api("GET", pricesPath(pl.id, `?filter.productCode=${b}`));
    const undated = { priceUnit: 1, flatAmount: 0, validFrom: null, validTo: null };
    expect(filtered.body.data).toEqual([
      { productCode: b, minQuantity: 1, amount: 20, ...undated },
      { productCode: b, minQuantity: 5, amount: 19, ...undated },
    ]);
    expect(filtered.body.meta).toMatchObject({ totalItems: 2, filter: { productCode: b } });
    const eq = await api("GET", pricesPath(pl.id, `?filter.productCode=$eq:${c}`));
    expect(eq.body.data).toEqual([{ productCode: c, minQuantity: 1, amount: 30, ...undated }]);
  });

  it("is an empty page for a pricelist without prices, and 404 for an unknown one", async () => {
    const pl = await createPricelist();
    const empty = await api("GET", pricesPath(pl.id));
    expect(empty.body).toMatchObject({ data: [], meta: { totalItems: 0, totalPages: 0 } });
    const missing = await api("GET", pricesPath(999_999_994));
    expect(expectProblem(missing, 404, "NOT_FOUND").detail).toBe("pricelist 999999994 not found");
    expect(roundTrips(missing)).toBe(1);
  });

  it("rejects queries outside the list configuration with 400, and 401 without key", async () => {
    const pl = await createPricelist();
    const bad = async (query: string) => issuePaths(await api("GET", pricesPath(pl.id, query)));
    expect(await bad("?sortBy=id:ASC")).toEqual(["query.sortBy"]);
    expect(await bad("?sortBy=amount:DESC")).toEqual(["query.sortBy"]);
    expect(await bad("?filter.productCode=$not:P")).toEqual(["query.filter.productCode"]);
    expect(await bad("?filter.productCode=$in:P,Q")).toEqual(["query.filter.productCode"]);
    expect(await bad("?filter.amount=5")).toEqual(["query.filter.amount"]);
    expect(await bad("?search=P")).toEqual(["query.search"]);
    expect(await bad("?select=amount")).toEqual(["query.select"]);
    expect(issuePaths(await api("GET", "/v1/api/pricelist/0/prices"))).toEqual(["path.id"]);
    expectProblem(await api("GET", pricesPath(pl.id), { key: null }), 401, "UNAUTHORIZED");
  });
});

describe("POST /v1/api/pricelist/{id}/prices/delete", () => {
  it("deletes every tier of the named products, reports unknown codes, and repeats harmlessly", async () => {
    const pl = await createPricelist();
    const other = await createPricelist();
    const [a, b, c] = await products(3);
    await put(pl.id, [
      { productCode: a!, amount: 10 },
      { productCode: a!, minQuantity: 10, amount: 9 },
      { productCode: b!, amount: 20 },
    ]);
    await put(other.id, [{ productCode: a!, amount: 11 }]);
    const res = await api("POST", deletePath(pl.id), {
      body: { productCodes: [a, c, "NOPE-P", a] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: [a, c], notFound: ["NOPE-P"] });
    expect(roundTrips(res)).toBe(2);
    expect(await sheet(pl.id)).toEqual([{ productCode: b, minQuantity: 1, amount: 20 }]);
    // Other pricelists keep their prices for the product.
    expect(await sheet(other.id)).toEqual([{ productCode: a, minQuantity: 1, amount: 11 }]);

    const again = await api("POST", deletePath(pl.id), { body: { productCodes: [a, "NOPE-P"] } });
    expect(again.body).toEqual({ deleted: [a], notFound: ["NOPE-P"] });
    expect(await sheet(pl.id)).toEqual([{ productCode: b, minQuantity: 1, amount: 20 }]);
  });

  it("handles 1000 codes in at most 3 round trips", async () => {
    const pl = await createPricelist();
    const codes = await bulkProducts(600);
    await put(
      pl.id,
      codes.map((productCode) => ({ productCode, amount: 1 })),
    );
    const body = [...codes, ...Array.from({ length: 400 }, (_, i) => `MISSING-${i}`)];
    const res = await api("POST", deletePath(pl.id), { body: { productCodes: body } });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toEqual(codes);
    expect(res.body.notFound).toHaveLength(400);
    expect(roundTrips(res)).toBeLessThanOrEqual(3);
    expect(await countRows("pricelist_prices", "pricelist_id", pl.id)).toBe(0);
  });

  it("validates, 404 for an unknown pricelist, 409 for an ARCHIVED one, 401 and 403", async () => {
    const [a] = await products(1);
    const pl = await createPricelist();
    await put(pl.id, [{ productCode: a!, amount: 1 }]);
    const path = deletePath(pl.id);
    expect(issuePaths(await api("POST", path, { body: { productCodes: [] } }))).toEqual([
      "body.productCodes",
    ]);
    const tooMany = Array.from({ length: 1001 }, (_, i) => `P-${i}`);
    expect(issuePaths(await api("POST", path, { body: { productCodes: tooMany } }))).toEqual([
      "body.productCodes",
    ]);
    expect(issuePaths(await api("POST", path, { body: { productCodes: ["a b"] } }))).toEqual([
      "body.productCodes.0",
    ]);
    expect(issuePaths(await api("POST", path, { body: { codes: [a] } })).sort()).toEqual([
      "body.codes",
      "body.productCodes",
    ]);
    const missing = await api("POST", deletePath(999_999_993), { body: { productCodes: [a] } });
    expect(expectProblem(missing, 404, "NOT_FOUND").detail).toBe("pricelist 999999993 not found");
    expectProblem(
      await api("POST", path, { key: KEYS.read, body: { productCodes: [a] } }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("POST", path, { key: null, body: { productCodes: [a] } }),
      401,
      "UNAUTHORIZED",
    );

    await setPricelistStatus(pl.id, "ARCHIVED");
    const archived = await api("POST", path, { body: { productCodes: [a] } });
    expect(expectProblem(archived, 409, "CONFLICT").detail).toBe(
      `pricelist ${pl.id} is ARCHIVED and can no longer be edited`,
    );
    expect(await sheet(pl.id)).toEqual([{ productCode: a, minQuantity: 1, amount: 1 }]);
  });
});

describe("the price write on its own (the guard behind the judged plan)", () => {
  it("writes nothing when the facts it was judged on changed meanwhile", async () => {
    const { createDb, DbMeter } = await import("../../src/db/client");
    const { readPriceRowFacts, writePriceRows, STALE_FACTS } =
      await import("../../src/db/price-rows");
    const { planTimelines } = await import("../../src/pricing/timeline");
    const db = createDb(env.DB, new DbMeter());
    const pl = await createPricelist();
    const [a, b] = await products(2);
    const rows = [a!, b!].map((productCode) => ({
      productCode,
      minQuantity: 1,
      amount: 5,
      priceUnit: 1,
      flatAmount: 0,
      validFrom: null,
    }));
    const read = (await readPriceRowFacts(db, pl.id, [a!, b!]))!;
    const plan = planTimelines(read.value.rows, rows);
    // A concurrent write lands between the read and the write.
    await api("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      body: { prices: [{ productCode: a, amount: 7 }] },
    });
    expect(await writePriceRows(db, pl.id, read, plan as never)).toBe(STALE_FACTS);
    expect(await sheet(pl.id)).toEqual([{ productCode: a, minQuantity: 1, amount: 7 }]);
  });
});

describe("OpenAPI document of the price and relation routes", () => {
  const statuses = (op: { responses: Record<string, unknown> }) => Object.keys(op.responses).sort();

  it("documents tags, operationIds, summaries, descriptions, exact statuses and examples", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    const expected: [string, string, string, string[]][] = [
      [
        "/v1/api/pricelist/{id}/customer-groups",
        "post",
        "assignCustomerGroupsToPricelist",
        ["201", "400", "401", "403", "404", "409", "413", "415", "429"],
      ],
      [
        "/v1/api/pricelist/{id}/customer-groups/unassign",
        "post",
        "unassignCustomerGroupsFromPricelist",
        // 409: an Idempotency-Key reused or in use (every write accepts one).
        ["200", "400", "401", "403", "404", "409", "413", "415", "429"],
      ],
      [
        "/v1/api/pricelist/individual/{id}",
        "delete",
        "deleteIndividualPricelist",
        ["204", "400", "401", "403", "404", "409", "413", "429"],
      ],
      [
        "/v1/api/pricelist/{id}/customers",
        "get",
        "listPricelistCustomers",
        ["200", "400", "401", "404", "429"],
      ],
      [
        "/v1/api/pricelist/{id}/prices",
        "get",
        "listPricelistPrices",
        ["200", "400", "401", "404", "429"],
      ],
      [
        "/v1/api/pricelist/{id}/prices",
        "put",
        "upsertPricelistPrices",
        ["200", "400", "401", "403", "404", "409", "413", "415", "429"],
      ],
      [
        "/v1/api/pricelist/{id}/prices/delete",
        "post",
        "deletePricelistPrices",
        ["200", "400", "401", "403", "404", "409", "413", "415", "429"],
      ],
    ];
    for (const [path, method, operationId, codes] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op).toMatchObject({ tags: ["Pricelists"], operationId });
      expect(op.summary).toEqual(expect.any(String));
      expect(op.description).toEqual(expect.any(String));
      expect(statuses(op)).toEqual(codes);
    }
    const upsert = doc.components.schemas.PricesUpsert;
    expect(upsert.example.prices[0]).toEqual({ productCode: "P-A", amount: 1250 });
    const list = doc.paths["/v1/api/pricelist/{id}/prices"].get;
    const names = list.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(["id", "page", "limit", "sortBy", "filter.productCode"]),
    );
    expect(names).not.toContain("search");
  });
});
