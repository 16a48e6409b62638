import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { productList, productRefs } from "../../src/resources/products/products.list";
import { listProducts } from "../../src/resources/products/products.repo";
import { createPricelist, createProduct, createProductGroup } from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";
import { listRequest, queryPlans } from "../shared/plans";

describe("products", () => {
  it("creates, reads, updates and deletes a product", async () => {
    const code = uid("P");
    const res = await api("POST", "/v1/api/product", { body: { code, name: "Hex bolt" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code, name: "Hex bolt" });
    expect(res.body.id).toBeTypeOf("number");
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const read = await api("GET", `/v1/api/product/${code}`, { key: KEYS.read });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);

    const updated = await api("PATCH", `/v1/api/product/${code}`, {
      body: { name: "Hex bolt M8" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: res.body.id, code, name: "Hex bolt M8" });

    expect((await api("DELETE", `/v1/api/product/${code}`)).status).toBe(204);
    expectProblem(await api("GET", `/v1/api/product/${code}`), 404, "NOT_FOUND");
  });

  it("refuses to delete a product while a pricelist has a price for it (409)", async () => {
    const p = await createProduct();
    const pl = await createPricelist({ name: "Prices" });
    const put = await api("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      body: { prices: [{ productCode: p.code, amount: 100 }] },
    });
    expect(put.status).toBe(200);
    const res = await api("DELETE", `/v1/api/product/${p.code}`);
    expect(expectProblem(res, 409, "IN_USE").detail).toBe(
      `product ${p.code} is still named by 1 pricelist (${pl.id}); remove it from them first`,
    );
    expect((await api("GET", `/v1/api/product/${p.code}`)).body).toEqual(p);

    // Once its prices are gone, the product can go.
    await api("POST", `/v1/api/pricelist/${pl.id}/prices/delete`, {
      body: { productCodes: [p.code] },
    });
    expect((await api("DELETE", `/v1/api/product/${p.code}`)).status).toBe(204);
  });

  it("refuses a duplicate code with 409 naming it", async () => {
    const p = await createProduct();
    const res = await api("POST", "/v1/api/product", { body: { code: p.code, name: "Again" } });
    expect(expectProblem(res, 409, "CONFLICT").detail).toContain(p.code);
    const other = await createProduct();
    const rename = await api("PATCH", `/v1/api/product/${other.code}`, { body: { code: p.code } });
    expectProblem(rename, 409, "CONFLICT");
  });

  it("validates bodies and path parameters, naming every field", async () => {
    const res = await api("POST", "/v1/api/product", {
      body: { code: "bad code!", name: 5, extra: 1 },
    });
    expect(issuePaths(res).sort()).toEqual(["body.code", "body.extra", "body.name"]);
    expect(issuePaths(await api("GET", "/v1/api/product/" + "x".repeat(65)))).toEqual([
      "path.code",
    ]);
    expectProblem(
      await api("PATCH", "/v1/api/product/NOPE-404", { body: { name: "x" } }),
      404,
      "NOT_FOUND",
    );
    expectProblem(await api("DELETE", "/v1/api/product/NOPE-404"), 404, "NOT_FOUND");
  });

  it("lists with select, search by code and paging", async () => {
    const tag = uid("LST");
    for (let i = 0; i < 3; i++) await createProduct({ code: `${tag}-${i}`, name: `Item ${i}` });
    const res = await api(
      "GET",
      `/v1/api/product?search=${tag.toLowerCase()}&select=code&limit=2&sortBy=id:asc`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: expect.any(Number), code: `${tag}-0` },
      { id: expect.any(Number), code: `${tag}-1` },
    ]);
    expect(res.body.meta).toEqual({
      itemsPerPage: 2,
      totalItems: 3,
      currentPage: 1,
      totalPages: 2,
      sortBy: [["id", "ASC"]],
      search: tag.toLowerCase(),
      searchBy: ["code"],
      select: ["code"],
    });
    expect(res.body.links.next).toBe(
      `http://pricing.test/v1/api/product?page=2&limit=2&sortBy=id:ASC&search=${tag.toLowerCase()}&select=code`,
    );
    expect(issuePaths(await api("GET", "/v1/api/product?select=price"))).toEqual(["query.select"]);
    expect(issuePaths(await api("GET", "/v1/api/product?sortBy=createdAt:ASC"))).toEqual([
      "query.sortBy",
    ]);
  });
});

describe("products: group and quantity rule", () => {
  it("defaults to no group and any quantity (1, 1, no maximum)", async () => {
    const p = await createProduct();
    expect(p).toMatchObject({
      productGroupCode: null,
      minOrderQuantity: 1,
      orderIncrement: 1,
      maxOrderQuantity: null,
    });
    expect((await api("GET", `/v1/api/product/${p.code}`)).body).toEqual(p);
  });

  it("takes a group and a quantity rule on create and PATCH, and shows the group's code", async () => {
    const g = await createProductGroup();
    const p = await createProduct({
      productGroupCode: g.code,
      minOrderQuantity: 100,
      orderIncrement: 50,
      maxOrderQuantity: 1000,
    });
    expect(p).toMatchObject({
      productGroupCode: g.code,
      minOrderQuantity: 100,
      orderIncrement: 50,
      maxOrderQuantity: 1000,
    });
    const other = await createProductGroup();
    const moved = await api("PATCH", `/v1/api/product/${p.code}`, {
      body: { productGroupCode: other.code, maxOrderQuantity: null },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      productGroupCode: other.code,
      minOrderQuantity: 100,
      maxOrderQuantity: null,
    });
    const cleared = await api("PATCH", `/v1/api/product/${p.code}`, {
      body: { productGroupCode: null },
    });
    expect(cleared.body.productGroupCode).toBeNull();
    // A renamed group shows under its new code: products store the group's id.
    await api("PATCH", `/v1/api/product/${p.code}`, { body: { productGroupCode: g.code } });
    const renamed = uid("PG");
    await api("PATCH", `/v1/api/product-group/${g.code}`, { body: { code: renamed } });
    expect((await api("GET", `/v1/api/product/${p.code}`)).body.productGroupCode).toBe(renamed);
  });

  it("refuses an unknown group and a maximum below the minimum, naming the field; writes nothing", async () => {
    const code = uid("P");
    const res = await api("POST", "/v1/api/product", {
      body: {
        code,
        name: "x",
        productGroupCode: "NO-SUCH-GROUP",
        minOrderQuantity: 10,
        maxOrderQuantity: 5,
      },
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.maxOrderQuantity", message: "must be ≥ minOrderQuantity (10)" },
      { path: "body.productGroupCode", message: "unknown product group NO-SUCH-GROUP" },
    ]);
    expectProblem(await api("GET", `/v1/api/product/${code}`), 404, "NOT_FOUND");

    const p = await createProduct({ minOrderQuantity: 10, maxOrderQuantity: 100 });
    // The merged record: raising only the minimum above the stored maximum names the minimum.
    const raise = await api("PATCH", `/v1/api/product/${p.code}`, {
      body: { minOrderQuantity: 200, name: "Not written" },
    });
    expect(expectProblem(raise, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.minOrderQuantity", message: "must be ≤ maxOrderQuantity (100)" },
    ]);
    const lower = await api("PATCH", `/v1/api/product/${p.code}`, {
      body: { maxOrderQuantity: 9 },
    });
    expect(issuePaths(lower)).toEqual(["body.maxOrderQuantity"]);
    const unknown = await api("PATCH", `/v1/api/product/${p.code}`, {
      body: { productGroupCode: "NO-SUCH-GROUP" },
    });
    expect(issuePaths(unknown)).toEqual(["body.productGroupCode"]);
    expect((await api("GET", `/v1/api/product/${p.code}`)).body).toEqual(p);
    // Both at once is fine when they agree.
    const both = await api("PATCH", `/v1/api/product/${p.code}`, {
      body: { minOrderQuantity: 200, maxOrderQuantity: 200 },
    });
    expect(both.body).toMatchObject({ minOrderQuantity: 200, maxOrderQuantity: 200 });
  });

  it("validates the quantity fields' types and ranges", async () => {
    const res = await api("POST", "/v1/api/product", {
      body: {
        code: uid("P"),
        name: "x",
        minOrderQuantity: 0,
        orderIncrement: 1.5,
        maxOrderQuantity: 1_000_001,
        productGroupCode: "bad code!",
      },
    });
    expect(issuePaths(res).sort()).toEqual([
      "body.maxOrderQuantity",
      "body.minOrderQuantity",
      "body.orderIncrement",
      "body.productGroupCode",
    ]);
    const p = await createProduct();
    const patch = await api("PATCH", `/v1/api/product/${p.code}`, {
      body: { minOrderQuantity: null, orderIncrement: 0 },
    });
    expect(issuePaths(patch).sort()).toEqual(["body.minOrderQuantity", "body.orderIncrement"]);
  });

  it("lists by filter.productGroupCode ($eq, $null) and selects the new fields", async () => {
    const g = await createProductGroup();
    const tag = uid("PF");
    const a = await createProduct({ code: `${tag}-A`, productGroupCode: g.code });
    const b = await createProduct({ code: `${tag}-B`, productGroupCode: g.code });
    await createProduct({ code: `${tag}-C` });
    const res = await api(
      "GET",
      `/v1/api/product?filter.productGroupCode=${g.code}&sortBy=id:ASC`,
      { key: KEYS.read },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([a, b]);
    expect(res.body.meta.totalItems).toBe(2);
    const searched = await api(
      "GET",
      `/v1/api/product?search=${tag}&filter.productGroupCode=$null&select=productGroupCode,minOrderQuantity`,
    );
    expect(searched.body.data).toEqual([
      { id: expect.any(Number), productGroupCode: null, minOrderQuantity: 1 },
    ]);
    expect(searched.body.meta.totalItems).toBe(1);
  });

  it("a group named by a product cannot be deleted: 409 naming the products", async () => {
    const g = await createProductGroup();
    const tag = uid("PD");
    for (let i = 0; i < 22; i++) {
      await createProduct({
        code: `${tag}-${String(i).padStart(2, "0")}`,
        productGroupCode: g.code,
      });
    }
    const res = await api("DELETE", `/v1/api/product-group/${g.code}`);
    const shown = Array.from({ length: 20 }, (_, i) => `${tag}-${String(i).padStart(2, "0")}`);
    expect(expectProblem(res, 409, "IN_USE").detail).toBe(
      `product group ${g.code} is still named by 22 products (${shown.join(", ")} and 2 more); ` +
        "remove it from them first",
    );
  });
});

describe("product search index and counts, kept in step by triggers", () => {
  const search = (term: string) =>
    api("GET", `/v1/api/product?search=${encodeURIComponent(term)}&searchBy=code,name&limit=100`, {
      key: KEYS.read,
    });
  const codes = (res: { body: { data: { code: string }[] } }) => res.body.data.map((p) => p.code);

  it("finds a product by code and name after create, update and delete", async () => {
    const tag = uid("IX");
    const p = await createProduct({ code: `${tag}-A`, name: `Flange ${tag} original` });
    expect(codes(await search(`${tag}-a`))).toEqual([p.code]);
    expect(codes(await search(`${tag.toLowerCase()} ORIG`))).toEqual([p.code]);

    await api("PATCH", `/v1/api/product/${p.code}`, { body: { name: `Flange ${tag} renamed` } });
    expect(codes(await search(`${tag} orig`))).toEqual([]);
    expect(codes(await search(`${tag} renam`))).toEqual([p.code]);

    await api("PATCH", `/v1/api/product/${p.code}`, { body: { code: `${tag}-B` } });
    expect(codes(await search(`${tag}-A`))).toEqual([]);
    expect(codes(await search(`${tag}-B`))).toEqual([`${tag}-B`]);

    expect((await api("DELETE", `/v1/api/product/${tag}-B`)).status).toBe(204);
    expect(codes(await search(tag))).toEqual([]);
  });

  it("keeps the catalogue total in step without counting it", async () => {
    const total = async () =>
      (await api("GET", "/v1/api/product?limit=1", { key: KEYS.read })).body.meta.totalItems;
    const counted = async () =>
      (await env.DB.prepare("select count(*) as n from products").first<{ n: number }>())!.n;
    const before = await total();
    expect(before).toBe(await counted());
    const p = await createProduct();
    expect(await total()).toBe(before + 1);
    await api("DELETE", `/v1/api/product/${p.code}`);
    expect(await total()).toBe(before);
    expect(await total()).toBe(await counted());
  });
});

describe("query plans of the product list (EXPLAIN QUERY PLAN on D1)", () => {
  /** The plan of each statement `GET /v1/api/product?<query>` sends: [rows, count]. */
  const plans = (query: string) =>
    queryPlans((db) => listProducts(db, listRequest(productList.config, query)));

  const FTS = expect.stringMatching(/^SCAN products_search VIRTUAL TABLE INDEX \d+:M/);
  const BY_ID = "SEARCH products USING INTEGER PRIMARY KEY (rowid=?)";
  const TOTAL = "SEARCH row_counts USING INDEX sqlite_autoindex_row_counts_1 (table_name=?)";
  /**
   * The code of each foreign key by code (the group's: productRefs) is a subquery run for the rows
   * a page returns only: a join would read every row an OFFSET skips (10,000 product rows at page
   * 500 by name, not just the name index). A filter by the group's code joins nothing either:
   * `product_group_id = (its id by code)`.
   */
  const CODES = productRefs.fields.flatMap((field) => [
    expect.stringMatching(/^CORRELATED SCALAR SUBQUERY \d+$/),
    `SEARCH ${getTableConfig(productRefs.refs[field].to).name} USING INTEGER PRIMARY KEY (rowid=?)`,
  ]);

  it.each(["page=1", "page=500", "page=500&sortBy=id:asc"])(
    "by id, %s: walks the table in key order, total from row_counts",
    async (query) => {
      expect(await plans(query)).toEqual([["SCAN products", ...CODES], [TOTAL]]);
    },
  );

  it.each(["page=1&sortBy=code:asc", "page=1000&sortBy=code:asc", "page=9&sortBy=code:desc"])(
    "by code, %s (npm run export): walks products_code_idx in order, no sort step",
    async (query) => {
      expect(await plans(query)).toEqual([
        ["SCAN products USING INDEX products_code_idx", ...CODES],
        [TOTAL],
      ]);
    },
  );

  it.each(["page=1&sortBy=name:asc", "page=500&sortBy=name:asc", "page=500&sortBy=name:desc"])(
    "by name, %s: walks products_name_idx in order, no sort step",
    async (query) => {
      expect(await plans(query)).toEqual([
        ["SCAN products USING INDEX products_name_idx", ...CODES],
        [TOTAL],
      ]);
    },
  );

  it.each([
    "search=P-00054321",
    "search=bolt&searchBy=name",
    "search=bol&searchBy=code,name&page=500",
  ])("search %s: the trigram index yields ids in order, counts alone", async (query) => {
    expect(await plans(query)).toEqual([[FTS, BY_ID, ...CODES], [FTS]]);
  });

  it("search sorted by name: index lookup, then a sort of the matches", async () => {
    expect(await plans("search=bolt&searchBy=name&sortBy=name:asc")).toEqual([
      [FTS, BY_ID, ...CODES, "USE TEMP B-TREE FOR ORDER BY"],
      [FTS],
    ]);
  });

  it("a term under 3 characters scans (trigrams need 3)", async () => {
    // The count reads lower(code) from the sort index of migration 0014 (as fast as the table's
    // own unique index at 100k: 20-40 ms either way).
    expect(await plans("search=ab")).toEqual([
      ["SCAN products", ...CODES],
      ["SCAN products USING INDEX products_code_idx"],
    ]);
    expect(await plans("search=ab&searchBy=name")).toEqual([
      ["SCAN products", ...CODES],
      ["SCAN products USING INDEX products_name_idx"],
    ]);
  });

  it("filter.productGroupCode: from the group's unique code to products_group_idx", async () => {
    const [rows, total] = await plans("filter.productGroupCode=SCREWS");
    // The group's id is read once by its code; the index holds a group's products in id order,
    // so the page needs no sort.
    const groupId = [
      expect.stringMatching(/^SCALAR SUBQUERY \d+$/),
      "SEARCH product_groups USING COVERING INDEX product_groups_code_unique (code=?)",
    ];
    expect(rows).toEqual([
      "SEARCH products USING INDEX products_group_idx (product_group_id=?)",
      ...groupId,
      ...CODES,
    ]);
    expect(total).toEqual([
      "SEARCH products USING COVERING INDEX products_group_idx (product_group_id=?)",
      ...groupId,
    ]);
  });
});
