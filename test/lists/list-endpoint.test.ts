import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import { customerGroups } from "../../src/db/schema";
import type { ListConfig } from "../../src/list";
import { parseListQuery } from "../../src/list/parse";
import { toOrderBy, toWhere } from "../../src/list/sql";
import { productList } from "../../src/resources/products/products.list";
import { createProduct } from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid, type ApiResponse } from "../shared/helpers";

/** The product list's fields as its configuration declares them (a new foreign key adds one). */
const SELECTABLE = [...productList.config.selectable!];
const FILTERABLE = Object.keys(productList.config.fields).filter(
  (field) => productList.config.fields[field]!.filter,
);

/**
 * The list contract end to end through GET /v1/api/product (sortable id, code and name, searchable
 * code and name with code the default, selectable id, code, name, createdAt, updatedAt, nothing
 * filterable). Terms of 3+ characters are answered by the trigram index, shorter ones by a scan. Storage is per test file,
 * but every query still narrows to this file's unique prefix with `search`.
 */

const ORIGIN = "http://pricing.test";
const PATH = "/v1/api/product";
const LINK = `${ORIGIN}${PATH}?`;

interface Product {
  id: number;
  code: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

const list = (query: string, key: string = KEYS.read) => api("GET", `${PATH}?${query}`, { key });
const ids = (body: { data: { id: number }[] }) => body.data.map((p) => p.id);

let tag: string;
let term: string;
/** The 12 products of this file, in creation (= ascending id) order. */
let products: Product[];
let asc: number[];
let desc: number[];

beforeAll(async () => {
  tag = uid("LE");
  term = tag.toLowerCase();
  products = [];
  // One at a time, so ids ascend in creation order.
  for (let i = 0; i < 12; i++) {
    products.push(
      await createProduct({ code: `${tag}-${String(i).padStart(2, "0")}`, name: `Item ${i}` }),
    );
  }
  asc = products.map((p) => p.id);
  desc = [...asc].reverse();
});

describe("GET /v1/api/product: sorting", () => {
  it("sorts by id, descending by default", async () => {
    const res = await list(`search=${term}&limit=100`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(desc);
    expect(res.body.meta.sortBy).toEqual([["id", "DESC"]]);
  });

  it.each([
    ["id:ASC", "ASC"],
    ["id:asc", "ASC"],
    ["id:Desc", "DESC"],
    ["id:asc,id:desc", "ASC"],
  ] as const)("sortBy=%s", async (sortBy, dir) => {
    const res = await list(`search=${term}&limit=100&sortBy=${sortBy}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(dir === "ASC" ? asc : desc);
    expect(res.body.meta.sortBy).toEqual([["id", dir]]);
  });

  it("sortBy=code:DESC sorts by code (what npm run export pages through)", async () => {
    const res = await list(`search=${term}&limit=100&sortBy=code:DESC`);
    expect(ids(res.body)).toEqual(desc); // the codes ascend with the ids
    expect(res.body.meta.sortBy).toEqual([["code", "DESC"]]);
  });

  it.each(["productGroupCode:ASC", "createdAt:ASC", "id", "id:UP", "id:ASC:x"])(
    "sortBy=%s -> 400 naming the sortable fields",
    async (sortBy) => {
      const res = await list(`sortBy=${sortBy}`);
      expect(issuePaths(res)).toEqual(["query.sortBy"]);
      expect(res.body.errors[0].message).toContain("sortable fields: id, code, name");
    },
  );
});

describe("GET /v1/api/product: paging", () => {
  it("walks the pages with truthful meta and exact links", async () => {
    const seen: number[] = [];
    for (const page of [1, 2, 3]) {
      const res = await list(`search=${term}&limit=5&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(page < 3 ? 5 : 2);
      seen.push(...ids(res.body));
      expect(res.body.meta).toEqual({
        itemsPerPage: 5,
        totalItems: 12,
        currentPage: page,
        totalPages: 3,
        sortBy: [["id", "DESC"]],
        search: term,
        searchBy: ["code"],
      });
      const at = (p: number) => `${LINK}page=${p}&limit=5&sortBy=id:DESC&search=${term}`;
      expect(res.body.links).toEqual({
        ...(page > 1 ? { first: at(1), previous: at(page - 1) } : {}),
        current: at(page),
        ...(page < 3 ? { next: at(page + 1), last: at(3) } : {}),
      });
    }
    expect(seen).toEqual(desc);
  });

  it("follows links.next until there is none, visiting every record once", async () => {
    const seen: number[] = [];
    let next: string | undefined = `${LINK}search=${term}&limit=5&sortBy=id:asc`;
    while (next) {
      const res: ApiResponse = await api("GET", next.slice(ORIGIN.length));
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      next = res.body.links.next;
    }
    expect(seen).toEqual(asc);
  });

  it("answers past the last page with empty data and a truthful meta", async () => {
    const res = await list(`search=${term}&limit=5&page=4`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toEqual({
      itemsPerPage: 5,
      totalItems: 12,
      currentPage: 4,
      totalPages: 3,
      sortBy: [["id", "DESC"]],
      search: term,
      searchBy: ["code"],
    });
    expect(res.body.links).toEqual({
      first: `${LINK}page=1&limit=5&sortBy=id:DESC&search=${term}`,
      previous: `${LINK}page=3&limit=5&sortBy=id:DESC&search=${term}`,
      current: `${LINK}page=4&limit=5&sortBy=id:DESC&search=${term}`,
    });
  });

  it("survives an enormous page number", async () => {
    const page = Number.MAX_SAFE_INTEGER;
    const res = await list(`search=${term}&page=${page}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ currentPage: page, totalItems: 12, totalPages: 1 });
    expect(res.body.links.previous).toBe(
      `${LINK}page=${page - 1}&limit=100&sortBy=id:DESC&search=${term}`,
    );
    // Beyond a safe integer it is the largest one: still past the end, never page 1 again (a
    // client paging until an empty page would loop), and a huge limit is the largest limit.
    for (const beyond of ["9007199254740993", "99999999999999999999"]) {
      const res = await list(`search=${term}&page=${beyond}&limit=${beyond}`);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta).toMatchObject({ currentPage: page, itemsPerPage: 100 });
    }
  });

  it.each([
    ["page=abc&limit=500", 1, 100],
    ["page=0&limit=0", 1, 20],
    ["page=-2&limit=-2", 1, 20],
    ["page=2.5&limit=2.5", 1, 20],
    ["page=2abc&limit=3abc", 1, 20],
    ["page=&limit=", 1, 20],
    ["page=2&page=1&limit=3&limit=50", 2, 3],
  ])("falls back on %s", async (query, page, limit) => {
    const res = await list(`search=${term}&${query}`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ currentPage: page, itemsPerPage: limit });
    expect(res.body.links.current).toBe(
      `${LINK}page=${page}&limit=${limit}&sortBy=id:DESC&search=${term}`,
    );
  });

  it("reads the page and its count in one D1 round trip", async () => {
    const res = await list(`search=${term}&limit=5&page=2`);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
  });
});

describe("GET /v1/api/product: meta, links and select", () => {
  it("gives every meta field and exact links for a full query", async () => {
    const res = await list(
      `cachebust=1&select=name,code&select=code&searchBy=code&search=${term}&sortBy=id:asc&limit=5&page=2`,
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta", "links"]);
    expect(Object.keys(res.body.meta)).toEqual([
      "itemsPerPage",
      "totalItems",
      "currentPage",
      "totalPages",
      "sortBy",
      "search",
      "searchBy",
      "select",
    ]);
    expect(res.body.meta).toEqual({
      itemsPerPage: 5,
      totalItems: 12,
      currentPage: 2,
      totalPages: 3,
      sortBy: [["id", "ASC"]],
      search: term,
      searchBy: ["code"],
      select: ["name", "code"],
    });
    expect(res.body.data).toEqual(
      products.slice(5, 10).map((p) => ({ id: p.id, name: p.name, code: p.code })),
    );
    const at = (p: number) =>
      `${LINK}page=${p}&limit=5&sortBy=id:ASC&search=${term}&searchBy=code&select=name,code`;
    expect(res.body.links).toEqual({
      first: at(1),
      previous: at(1),
      current: at(2),
      next: at(3),
      last: at(3),
    });
  });

  it("omits search, searchBy and select from meta when they were not given", async () => {
    const res = await list("limit=1&cachebust=1");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.meta)).toEqual([
      "itemsPerPage",
      "totalItems",
      "currentPage",
      "totalPages",
      "sortBy",
    ]);
    expect(res.body.links.current).toBe(`${LINK}page=1&limit=1&sortBy=id:DESC`);
    // searchBy without a search term changes nothing and is not echoed.
    const narrowed = await list("limit=1&searchBy=code&search=");
    expect(narrowed.body.meta).toEqual(res.body.meta);
    expect(narrowed.body.links).toEqual(res.body.links);
  });

  it("returns whole products without select, and id plus the selected fields with it", async () => {
    const whole = await list(`search=${term}&sortBy=id:asc&limit=1`);
    expect(whole.body.data).toEqual([products[0]]);
    const dates = await list(`search=${term}&sortBy=id:asc&limit=1&select=createdAt,updatedAt`);
    expect(dates.body.data).toEqual([
      { id: asc[0], createdAt: products[0]!.createdAt, updatedAt: products[0]!.updatedAt },
    ]);
    const idOnly = await list(`search=${term}&sortBy=id:asc&limit=2&select=id`);
    expect(idOnly.body.data).toEqual([{ id: asc[0] }, { id: asc[1] }]);
    expect(idOnly.body.meta.select).toEqual(["id"]);
    // Every selectable field, in another order than the configuration's.
    const all = await list(
      `search=${term}&sortBy=id:asc&limit=1&select=${[...SELECTABLE].reverse().join(",")}`,
    );
    expect(all.body.data).toEqual([products[0]]);
  });

  it("refuses a select of a field products do not have", async () => {
    const res = await list("select=code,price&select=status");
    expect(issuePaths(res)).toEqual(["query.select", "query.select"]);
    expect(res.body.errors[0].message).toBe(
      `"price" is not selectable; selectable fields: ${SELECTABLE.join(", ")}`,
    );
    expect(SELECTABLE.slice(0, 4)).toEqual(["id", "code", "name", "productGroupCode"]);
  });

  it("answers the same to a read key and refuses a missing key", async () => {
    expect((await list(`search=${term}`, KEYS.admin)).body.meta.totalItems).toBe(12);
    expectProblem(await api("GET", PATH, { key: null }), 401, "UNAUTHORIZED");
  });
});

describe("GET /v1/api/product: search", () => {
  let special: string;
  let byCode: Map<string, number>;

  beforeAll(async () => {
    special = uid("SP");
    // `%` and `\` are not allowed in codes through the API, so these rows are written directly:
    // the point is that stored data containing them is matched literally.
    const codes = [
      "50%OFF",
      "50XOFF",
      "A_B",
      "AXB",
      "C\\D",
      "CXD",
      "SPACE ME",
      "LIMIT" + "Z".repeat(60),
    ].map((c) => `${special}-${c}`);
    await env.DB.batch(
      codes.map((code) =>
        env.DB.prepare("insert into products (code, name) values (?, ?)").bind(code, "Special"),
      ),
    );
    const res = await list(`search=${special}&limit=100`);
    byCode = new Map(res.body.data.map((p: Product) => [p.code, p.id]));
    expect(byCode.size).toBe(codes.length);
  });

  const found = async (search: string) => {
    const res = await list(`search=${encodeURIComponent(search)}&limit=100&sortBy=id:asc`);
    expect(res.status).toBe(200);
    expect(res.body.meta.search).toBe(search);
    return res.body.data.map((p: Product) => p.code.slice(special.length + 1));
  };

  it("matches %, _ and \\ literally, never as wildcards", async () => {
    expect(await found("50%O")).toEqual(["50%OFF"]);
    expect(await found("%")).toEqual(["50%OFF"]);
    expect(await found("A_B")).toEqual(["A_B"]);
    expect(await found(`${special}-A_`)).toEqual(["A_B"]);
    expect(await found("C\\D")).toEqual(["C\\D"]);
    expect(await found("\\")).toEqual(["C\\D"]);
    expect(await found(`${special}%`)).toEqual([]);
    expect(await found(`${special}-___`)).toEqual([]);
  });

  it("is case-insensitive and keeps spaces as part of the term", async () => {
    expect(await found(`${special.toLowerCase()}-axb`)).toEqual(["AXB"]);
    expect(await found("e me")).toEqual(["SPACE ME"]);
    expect(await found("ace  me")).toEqual([]);
  });

  it("treats an empty term as absent", async () => {
    const res = await list(`search=&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body.meta.search).toBeUndefined();
    expect(res.body.meta.totalItems).toBe(12 + byCode.size);
  });

  it("finds a match with a term longer than D1's 50-byte LIKE pattern limit", async () => {
    const code = `${special}-LIMIT${"Z".repeat(60)}`;
    const long = code.slice(0, 64);
    expect(long.length).toBeGreaterThan(50);
    const res = await list(`search=${long.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: Product) => p.code)).toEqual([code]);
  });

  it.each([
    ["x".repeat(100), "ASCII"],
    ["é".repeat(100), "two-byte"],
    ["%".repeat(100), "wildcard"],
  ])("answers 200 to a 100-character %s term", async (search) => {
    const res = await list(`search=${encodeURIComponent(search)}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ totalItems: 0, totalPages: 0, search });
    expect(res.body.links).toEqual({
      current: `${LINK}page=1&limit=20&sortBy=id:DESC&search=${encodeURIComponent(search)}`,
    });
  });

  it("refuses a 101-character term", async () => {
    const res = await list(`search=${"x".repeat(101)}`);
    expect(issuePaths(res)).toEqual(["query.search"]);
    expect(res.body.errors[0].message).toBe("must be at most 100 characters");
  });

  it("accepts searchBy=code,name (repeated or comma-joined) and refuses other fields", async () => {
    const res = await list(`search=${term}&searchBy=code&searchBy=code,code&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ totalItems: 12, searchBy: ["code"] });
    expect(res.body.links.current).toBe(
      `${LINK}page=1&limit=1&sortBy=id:DESC&search=${term}&searchBy=code`,
    );
    const both = await list(`search=${term}&searchBy=name,code&limit=1`);
    expect(both.body.meta).toMatchObject({ totalItems: 12, searchBy: ["name", "code"] });
    const bad = await list(`search=${term}&searchBy=createdAt`);
    expect(issuePaths(bad)).toEqual(["query.searchBy"]);
    expect(bad.body.errors[0].message).toBe(
      '"createdAt" is not searchable; searchable fields: code, name',
    );
  });
});

describe("GET /v1/api/product: sorting by name", () => {
  let prefix: string;
  let byName: Product[];

  beforeAll(async () => {
    prefix = uid("NM");
    byName = [];
    for (const name of ["Mu", "beta", "lambda", "Kappa", "alpha", "Beta"]) {
      byName.push(await createProduct({ code: `${prefix}-${byName.length}`, name }));
    }
  });

  const names = (res: ApiResponse) =>
    res.body.data.filter((p: Product) => p.code.startsWith(prefix)).map((p: Product) => p.name);

  it("sorts case-insensitively, ties in the direction of the last term (index and scan)", async () => {
    // A 3+ character term takes the trigram index; no term reads the whole list in index order.
    for (const query of [`search=${prefix}`, ""]) {
      const up = await list(`${query}&limit=100&sortBy=name:asc`);
      expect(up.status).toBe(200);
      expect(up.body.meta.sortBy).toEqual([["name", "ASC"]]);
      expect(names(up)).toEqual(["alpha", "beta", "Beta", "Kappa", "lambda", "Mu"]);
      const down = await list(`${query}&limit=100&sortBy=name:DESC`);
      expect(names(down)).toEqual(["Mu", "lambda", "Kappa", "Beta", "beta", "alpha"]);
      const ties = await list(`${query}&limit=100&sortBy=name:asc,id:desc`);
      expect(names(ties)).toEqual(["alpha", "Beta", "beta", "Kappa", "lambda", "Mu"]);
    }
  });

  it("pages by name with exact links, in one round trip", async () => {
    const res = await list(`search=${prefix}&limit=2&page=2&sortBy=name:ASC`);
    expect(names(res)).toEqual(["Beta", "Kappa"]);
    expect(res.body.meta).toMatchObject({ totalItems: 6, totalPages: 3, currentPage: 2 });
    expect(res.body.links.next).toBe(`${LINK}page=3&limit=2&sortBy=name:ASC&search=${prefix}`);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
  });

  it("searches names only when asked (searchBy=name); codes by default, as the seed did", async () => {
    const byDefault = await list(`search=kapp&limit=100`);
    expect(names(byDefault)).toEqual([]);
    const named = await list(`search=KAPP&searchBy=name&limit=100`);
    expect(names(named)).toEqual(["Kappa"]);
    expect(named.body.meta).toMatchObject({ search: "KAPP", searchBy: ["name"] });
    const either = await list(`search=${prefix}-1&searchBy=code,name&limit=100&sortBy=id:asc`);
    expect(names(either)).toEqual(["beta"]);
  });
});

describe("GET /v1/api/product: the trigram index answers exactly like the scan", () => {
  // Names full of FTS5 syntax, quotes, non-ASCII case pairs and look-alikes, written directly
  // (the API would accept most of them too). The reference is the engine's own scan predicate.
  const NAMES = [
    'Say "quoted" twice',
    "a*b wildcard",
    "NEAR(x y) AND OR NOT",
    "col:val {x} ^start",
    "Größe ÄÖÜ",
    "grösse äöü",
    "STRASSE",
    "\u212Aelvin sign",
    "Kelvin letter",
    "İstanbul",
    "🔩 bolt M8",
    "ǅ digraph",
    "  two  spaces  ",
    "apostrophe's",
  ];
  const TERMS = [
    '"quoted"',
    '"',
    '""',
    'say "',
    "a*b",
    "*",
    "near(",
    "and or",
    "or not",
    "col:val",
    "{x}",
    "^st",
    "größe",
    "GRÖSSE",
    "ÄÖÜ",
    "äöü",
    "strasse",
    "kel",
    "\u212Ael",
    "KELVIN",
    "ista",
    "İst",
    "🔩 b",
    "🔩",
    "two  s",
    "o  s",
    "'s ",
    "s'",
    "ǆ d",
    "ǅ d",
    "xyz-none",
  ];
  let prefix: string;

  beforeAll(async () => {
    prefix = uid("FT");
    await env.DB.batch(
      NAMES.map((name, i) =>
        env.DB.prepare("insert into products (code, name) values (?, ?)").bind(
          `${prefix}-${i}`,
          name,
        ),
      ),
    );
  });

  /** Ids the scan predicate finds among every product of this file, ascending. */
  async function reference(term: string, fields: string[]) {
    const where = fields.map((f) => `instr(lower(${f}), lower(?1)) > 0`).join(" or ");
    const rows = await env.DB.prepare(`select id from products where ${where} order by id`)
      .bind(term)
      .all<{ id: number }>();
    return rows.results.map((r) => r.id);
  }

  it.each(TERMS)("%s", async (term) => {
    for (const fields of [["code", "name"], ["name"], ["code"]]) {
      const q = `search=${encodeURIComponent(term)}&searchBy=${fields.join(",")}&limit=100&sortBy=id:asc`;
      const res = await list(q);
      expect(res.status).toBe(200);
      const expected = await reference(term, fields);
      expect(ids(res.body)).toEqual(expected);
      expect(res.body.meta.totalItems).toBe(expected.length);
    }
  });

  it("folds ASCII case only, like SQLite's lower(): no Unicode folding sneaks in", async () => {
    const found = async (term: string) => {
      const res = await list(`search=${encodeURIComponent(term)}&searchBy=name&limit=100`);
      return res.body.data
        .filter((p: Product) => p.code.startsWith(prefix))
        .map((p: Product) => p.name)
        .sort();
    };
    expect(await found("ÄÖÜ")).toEqual(["Größe ÄÖÜ"]);
    expect(await found("äöü")).toEqual(["grösse äöü"]);
    expect(await found("strasse")).toEqual(["STRASSE"]);
    // FTS5's default trigram folding would match the Kelvin sign (U+212A) here; lower() does not.
    expect(await found("KELVIN")).toEqual(["Kelvin letter"]);
    expect(await found('"quoted"')).toEqual(['Say "quoted" twice']);
    expect(await found("near(")).toEqual(["NEAR(x y) AND OR NOT"]);
    expect(await found("🔩 b")).toEqual(["🔩 bolt M8"]);
  });

  it("answers a term with a NUL character without an error (it takes the scan)", async () => {
    const res = await list(`search=ab%00cd&searchBy=code,name`);
    expect(res.status).toBe(200);
    expect(res.body.meta.totalItems).toBe(0);
  });
});

describe("GET /v1/api/product: refused and ignored parameters", () => {
  it("ignores unknown parameters", async () => {
    const res = await list(`search=${term}&cachebust=1&sort=code&filters=1&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body.meta.totalItems).toBe(12);
    expect(res.body.links.current).toBe(`${LINK}page=1&limit=1&sortBy=id:DESC&search=${term}`);
  });

  it.each(["filter.code=x", "filter.id=1", "filter.name=$eq:x", "filter.=x"])(
    "refuses %s: products filter by the codes they name only",
    async (filter) => {
      const res = await list(filter);
      expect(res.body.errors).toEqual([
        {
          path: `query.${filter.split("=")[0]}`,
          message: `is not filterable; filterable fields: ${FILTERABLE.join(", ")}`,
        },
      ]);
      expectProblem(res, 400, "VALIDATION_FAILED");
    },
  );

  it("reports every issue of a request together", async () => {
    const res = await list(
      `sortBy=createdAt:ASC&search=${"x".repeat(101)}&searchBy=id&select=price&filter.code=x`,
    );
    expect(issuePaths(res)).toEqual([
      "query.sortBy",
      "query.search",
      "query.searchBy",
      "query.select",
      "query.filter.code",
    ]);
    expect(res.body.detail).toBe("5 validation issues; see errors");
  });
});

describe("GET /v1/api/product: OpenAPI", () => {
  it("documents the list parameters from the same config", async () => {
    const doc = await api("GET", "/doc", { key: null });
    const op = doc.body.paths["/v1/api/product"].get;
    expect(op.operationId).toBe("listProducts");
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual([
      "page",
      "limit",
      "sortBy",
      "search",
      "searchBy",
      "select",
      ...FILTERABLE.map((field) => `filter.${field}`),
    ]);
    expect(FILTERABLE[0]).toBe("productGroupCode");
    const sortBy = op.parameters.find((p: { name: string }) => p.name === "sortBy");
    expect(sortBy.schema.items.enum).toEqual([
      "id:ASC",
      "id:DESC",
      "code:ASC",
      "code:DESC",
      "name:ASC",
      "name:DESC",
    ]);
    const searchBy = op.parameters.find((p: { name: string }) => p.name === "searchBy");
    expect(searchBy.schema.items.enum).toEqual(["code", "name"]);
    expect(searchBy.description).toContain("default: code.");
  });
});

describe("the engine's SQL on real D1", () => {
  // Products have no text sort and no filters, so this runs the engine's clauses directly
  // against a table that has a nullable column.
  const groupList: ListConfig = {
    fields: {
      id: { column: customerGroups.id, type: "number", sortable: true },
      code: { column: customerGroups.code, type: "text", searchable: true },
      name: {
        column: customerGroups.name,
        type: "text",
        sortable: true,
        filter: ["$in", "$not"],
      },
      description: { column: customerGroups.description, type: "text", filter: ["$not", "$null"] },
      createdAt: {
        column: customerGroups.createdAt,
        type: "datetime",
        sortable: true,
        filter: ["$gte", "$lt", "$btw", "$not"],
      },
    },
  };
  const DAY = 86_400_000;
  const JAN1 = Date.UTC(2025, 0, 1);
  const rows: [string, string | null, number][] = [
    ["Mu", "x", JAN1],
    ["lambda", null, JAN1 + DAY],
    ["Kappa", "y", JAN1 + 2 * DAY],
    ["alpha", "x", JAN1 + 3 * DAY],
    ["Beta", null, JAN1 + 4 * DAY],
  ];
  let prefix: string;

  beforeAll(async () => {
    prefix = uid("GRP");
    await env.DB.batch(
      rows.map(([name, description, createdAt], i) =>
        env.DB.prepare(
          "insert into customer_groups (code, name, description, created_at, updated_at) values (?, ?, ?, ?, ?)",
        ).bind(`${prefix}-${i}`, name, description, createdAt, createdAt),
      ),
    );
  });

  /** Names of this block's groups matching the query, in the engine's order. */
  async function names(query: string) {
    const q = parseListQuery([...new URLSearchParams(`search=${prefix}&${query}`)], groupList);
    const found = await drizzle(env.DB)
      .select({ name: customerGroups.name })
      .from(customerGroups)
      .where(toWhere(groupList, q))
      .orderBy(...toOrderBy(groupList, q));
    return found.map((r) => r.name);
  }

  it("sorts text case-insensitively: lambda between Kappa and Mu", async () => {
    expect(await names("sortBy=name:asc")).toEqual(["alpha", "Beta", "Kappa", "lambda", "Mu"]);
    expect(await names("sortBy=name:DESC")).toEqual(["Mu", "lambda", "Kappa", "Beta", "alpha"]);
  });

  it("compares text exactly and case-sensitively for $eq and $in", async () => {
    expect(await names("filter.name=lambda")).toEqual(["lambda"]);
    expect(await names("filter.name=LAMBDA")).toEqual([]);
    expect(await names("filter.name=$in:Mu,kappa,alpha&sortBy=id:asc")).toEqual(["Mu", "alpha"]);
  });

  it("follows SQL for $not: a NULL matches neither x nor $not:x", async () => {
    const all = "sortBy=id:asc";
    expect(await names(`${all}&filter.description=x`)).toEqual(["Mu", "alpha"]);
    expect(await names(`${all}&filter.description=$not:x`)).toEqual(["Kappa"]);
    expect(await names(`${all}&filter.description=$null`)).toEqual(["lambda", "Beta"]);
    expect(await names(`${all}&filter.description=$not:$null`)).toEqual(["Mu", "Kappa", "alpha"]);
  });

  it("compares date-times as instants, whatever the zone of the value", async () => {
    const all = "sortBy=createdAt:asc";
    expect(
      await names(`${all}&filter.createdAt=$gte:2025-01-02&filter.createdAt=$lt:2025-01-04`),
    ).toEqual(["lambda", "Kappa"]);
    expect(await names(`${all}&filter.createdAt=$gte:2025-01-04T01:00:00%2B01:00`)).toEqual([
      "alpha",
      "Beta",
    ]);
    expect(await names(`${all}&filter.createdAt=$btw:2025-01-01,2025-01-02T00:00:00Z`)).toEqual([
      "Mu",
      "lambda",
    ]);
    expect(await names(`${all}&filter.createdAt=$not:2025-01-01T00:00:00.000Z`)).toEqual([
      "lambda",
      "Kappa",
      "alpha",
      "Beta",
    ]);
  });
});
