import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseListQuery } from "../src/list/parse";
import { toOrderBy, toWhere } from "../src/list/sql";
import { createDb, DbMeter } from "../src/lib/db";
import { productList } from "../src/resources/products/products.list";
import { listProducts } from "../src/resources/products/products.repo";
import { createPricelist, createProduct } from "./factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "./helpers";

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
    expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
      `product ${p.code} still has prices or is named by a trade condition or promotion`,
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
    expect(issuePaths(await api("GET", "/v1/api/product?sortBy=code:ASC"))).toEqual([
      "query.sortBy",
    ]);
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
  /** A database handle that notes every statement the repository sends, with its parameters. */
  function recordingDb() {
    const seen: { sql: string; params: unknown[] }[] = [];
    const client = {
      prepare: (sql: string) =>
        ({
          bind: (...params: unknown[]) => {
            seen.push({ sql, params });
            return env.DB.prepare(sql).bind(...params);
          },
        }) as unknown as D1PreparedStatement,
      batch: <T>(statements: D1PreparedStatement[]) => env.DB.batch<T>(statements),
    };
    return { db: createDb(client, new DbMeter()), seen };
  }

  /** The plan of each statement `GET /v1/api/product?<query>` sends: [rows, count]. */
  async function plans(query: string) {
    const parsed = parseListQuery([...new URLSearchParams(query)], productList.config);
    const { db, seen } = recordingDb();
    await listProducts(db, {
      query: parsed,
      where: toWhere(productList.config, parsed),
      orderBy: toOrderBy(productList.config, parsed),
      limit: parsed.limit,
      offset: (parsed.page - 1) * parsed.limit,
      envelope: () => {
        throw new Error("not used");
      },
    });
    return Promise.all(
      seen.map(async ({ sql, params }) => {
        const rows = await env.DB.prepare(`explain query plan ${sql}`)
          .bind(...params)
          .all<{ detail: string }>();
        return rows.results.map((r) => r.detail);
      }),
    );
  }

  const FTS = expect.stringMatching(/^SCAN products_search VIRTUAL TABLE INDEX \d+:M/);
  const BY_ID = "SEARCH products USING INTEGER PRIMARY KEY (rowid=?)";
  const TOTAL = "SEARCH row_counts USING INDEX sqlite_autoindex_row_counts_1 (table_name=?)";

  it.each(["page=1", "page=500", "page=500&sortBy=id:asc"])(
    "by id, %s: walks the table in key order, total from row_counts",
    async (query) => {
      expect(await plans(query)).toEqual([["SCAN products"], [TOTAL]]);
    },
  );

  it.each(["page=1&sortBy=name:asc", "page=500&sortBy=name:asc", "page=500&sortBy=name:desc"])(
    "by name, %s: walks products_name_idx in order, no sort step",
    async (query) => {
      expect(await plans(query)).toEqual([
        ["SCAN products USING INDEX products_name_idx"],
        [TOTAL],
      ]);
    },
  );

  it.each([
    "search=P-00054321",
    "search=bolt&searchBy=name",
    "search=bol&searchBy=code,name&page=500",
  ])("search %s: the trigram index yields ids in order, counts alone", async (query) => {
    expect(await plans(query)).toEqual([[FTS, BY_ID], [FTS]]);
  });

  it("search sorted by name: index lookup, then a sort of the matches", async () => {
    expect(await plans("search=bolt&searchBy=name&sortBy=name:asc")).toEqual([
      [FTS, BY_ID, "USE TEMP B-TREE FOR ORDER BY"],
      [FTS],
    ]);
  });

  it("a term under 3 characters scans (trigrams need 3)", async () => {
    expect(await plans("search=ab")).toEqual([
      ["SCAN products"],
      ["SCAN products USING COVERING INDEX products_code_unique"],
    ]);
    expect(await plans("search=ab&searchBy=name")).toEqual([
      ["SCAN products"],
      ["SCAN products USING INDEX products_name_idx"],
    ]);
  });
});
