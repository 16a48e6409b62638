import { sql, type SQL } from "drizzle-orm";
import { integer, SQLiteSyncDialect, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/core/errors";
import type { ListConfig } from "../../src/list";
import { envelope } from "../../src/list/envelope";
import { listParameters } from "../../src/list/openapi";
import { parseListQuery } from "../../src/list/parse";
import { toOrderBy, toWhere } from "../../src/list/sql";

/** Unit tests of the list engine against docs/list-queries.md, rule by rule, without a Worker round trip. */

const things = sqliteTable("things", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  code: text("code"),
  qty: integer("qty"),
  active: integer("active", { mode: "boolean" }),
  status: text("status"),
  validFrom: integer("valid_from"),
});

const STATUSES = ["DRAFT", "ACTIVE", "ARCHIVED"] as const;

const config: ListConfig = {
  fields: {
    id: { column: things.id, type: "number", sortable: true, filter: ["$gt", "$in"] },
    name: {
      column: things.name,
      type: "text",
      sortable: true,
      searchable: true,
      filter: ["$in", "$not", "$null"],
    },
    code: { column: things.code, type: "text", searchable: true },
    qty: { column: things.qty, type: "number", sortable: true, filter: ["$gte", "$lt", "$btw"] },
    active: { column: things.active, type: "boolean", filter: [] },
    status: { column: things.status, type: STATUSES, filter: ["$not", "$in"] },
    validFrom: {
      column: things.validFrom,
      type: "datetime",
      sortable: true,
      filter: ["$gte", "$lt", "$not"],
    },
  },
  selectable: ["id", "name", "code", "qty"],
};

/** An endpoint with nothing but a sortable id. */
const bare: ListConfig = {
  fields: { id: { column: things.id, type: "number", sortable: true } },
};

const entries = (qs: string) => [...new URLSearchParams(qs)];
const parse = (qs: string, cfg: ListConfig = config) => parseListQuery(entries(qs), cfg);

/** The issues of a query that must be refused with 400. */
function issues(qs: string, cfg: ListConfig = config) {
  try {
    parse(qs, cfg);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    expect(err.status).toBe(400);
    expect(err.code).toBe("VALIDATION_FAILED");
    return err.errors ?? [];
  }
  throw new Error(`expected ${qs} to be refused`);
}

const ORIGIN = "https://api.example.test";
const PATH = "/v1/api/things";
const BASE = `${ORIGIN}${PATH}?`;
const url = (qs: string) => new URL(`${ORIGIN}${PATH}?${qs}`);
const env = <T extends object>(qs: string, data: T[], total: number, cfg = config) =>
  envelope(url(qs), parse(qs, cfg), data, total);

const dialect = new SQLiteSyncDialect();
function render(s: SQL | undefined) {
  const { sql: text, params } = dialect.sqlToQuery(s ?? sql``);
  return { sql: text, params };
}
const where = (qs: string) => render(toWhere(config, parse(qs)));
const orderBy = (qs: string, cfg = config) =>
  render(sql.join(toOrderBy(cfg, parse(qs, cfg)), sql`, `));

const col = (name: string) => `"things"."${name}"`;

describe("page and limit", () => {
  it.each([
    ["", 1],
    ["page=", 1],
    ["page=0", 1],
    ["page=-2", 1],
    ["page=abc", 1],
    ["page=2.5", 1],
    ["page=2abc", 1],
    ["page=1e2", 1],
    ["page=%202", 1],
    ["page=3", 3],
    ["page=007", 7],
    ["page=3&page=5", 3],
    ["page=abc&page=5", 1],
    ["page=99999999999999999999", Number.MAX_SAFE_INTEGER],
  ])("%j -> page %i", (qs, page) => {
    expect(parse(qs).page).toBe(page);
  });

  it.each([
    ["", 20],
    ["limit=", 20],
    ["limit=0", 20],
    ["limit=-2", 20],
    ["limit=abc", 20],
    ["limit=2.5", 20],
    ["limit=2abc", 20],
    ["limit=1", 1],
    ["limit=5", 5],
    ["limit=100", 100],
    ["limit=101", 100],
    ["limit=500", 100],
    ["limit=5&limit=50", 5],
    ["limit=x&limit=50", 20],
  ])("%j -> limit %i", (qs, limit) => {
    expect(parse(qs).limit).toBe(limit);
  });
});

describe("sortBy", () => {
  it.each([
    ["", [["id", "DESC"]]],
    ["sortBy=", [["id", "DESC"]]],
    ["sortBy=name:ASC", [["name", "ASC"]]],
    ["sortBy=name:asc", [["name", "ASC"]]],
    ["sortBy=name:Desc", [["name", "DESC"]]],
    ["sortBy=id:aSc", [["id", "ASC"]]],
    [
      "sortBy=name:asc,qty:desc",
      [
        ["name", "ASC"],
        ["qty", "DESC"],
      ],
    ],
    [
      "sortBy=qty:DESC&sortBy=name:ASC",
      [
        ["qty", "DESC"],
        ["name", "ASC"],
      ],
    ],
    [
      "sortBy=validFrom:asc,qty:asc&sortBy=name:desc",
      [
        ["validFrom", "ASC"],
        ["qty", "ASC"],
        ["name", "DESC"],
      ],
    ],
    ["sortBy=name:ASC&sortBy=name:DESC", [["name", "ASC"]]],
    [
      "sortBy=name:desc,id:asc,name:asc",
      [
        ["name", "DESC"],
        ["id", "ASC"],
      ],
    ],
  ])("%j -> %j", (qs, sortBy) => {
    expect(parse(qs).sortBy).toEqual(sortBy);
  });

  it("uses the endpoint's default sort when none is given", () => {
    const cfg: ListConfig = { ...config, defaultSortBy: [["name", "ASC"]] };
    expect(parse("", cfg).sortBy).toEqual([["name", "ASC"]]);
    expect(parse("sortBy=qty:desc", cfg).sortBy).toEqual([["qty", "DESC"]]);
  });

  it.each([
    "sortBy=code:ASC",
    "sortBy=nope:ASC",
    "sortBy=name",
    "sortBy=name:",
    "sortBy=name:UP",
    "sortBy=name:ASC:x",
    "sortBy=:ASC",
    "sortBy=name:ASC,qty",
  ])("%j -> 400 naming the sortable fields", (qs) => {
    const errs = issues(qs);
    expect(errs).toHaveLength(1);
    expect(errs[0]!.path).toBe("query.sortBy");
    expect(errs[0]!.message).toContain("id, name, qty, validFrom");
  });

  it("reports every bad term", () => {
    expect(issues("sortBy=nope:ASC,name:sideways&sortBy=code:DESC")).toHaveLength(3);
  });

  it("does not echo the stable id tiebreak", () => {
    expect(parse("sortBy=name:asc").sortBy).toEqual([["name", "ASC"]]);
    expect(env("sortBy=name:asc", [], 0).meta.sortBy).toEqual([["name", "ASC"]]);
  });
});

describe("search and searchBy", () => {
  it("treats an empty term as absent", () => {
    const q = parse("search=");
    expect(q.search).toBeUndefined();
    expect(toWhere(config, q)).toBeUndefined();
  });

  it("keeps spaces and wildcard characters as part of the term", () => {
    expect(parse("search=%20a%20b%20").search).toBe(" a b ");
    expect(parse("search=50%25_off%5C").search).toBe("50%_off\\");
  });

  it("takes the first search value when repeated", () => {
    expect(parse("search=abc&search=xyz").search).toBe("abc");
  });

  it("accepts 100 characters and refuses 101", () => {
    expect(parse(`search=${"x".repeat(100)}`).search).toHaveLength(100);
    expect(parse(`search=${"é".repeat(100)}`).search).toHaveLength(100);
    // Characters, not UTF-16 units.
    expect([...parse(`search=${"😀".repeat(100)}`).search!]).toHaveLength(100);
    expect(issues(`search=${"x".repeat(101)}`)).toEqual([
      { path: "query.search", message: "must be at most 100 characters" },
    ]);
  });

  it.each([
    ["search=a", ["name", "code"]],
    ["search=a&searchBy=code", ["code"]],
    ["search=a&searchBy=code&searchBy=name", ["code", "name"]],
    ["search=a&searchBy=code,name", ["code", "name"]],
    ["search=a&searchBy=code,code&searchBy=code", ["code"]],
    ["search=a&searchBy=", ["name", "code"]],
  ])("%j searches %j", (qs, fields) => {
    expect(parse(qs).searchBy).toEqual(fields);
  });

  it("refuses a field that is not searchable, naming the searchable ones", () => {
    expect(issues("search=a&searchBy=qty")).toEqual([
      {
        path: "query.searchBy",
        message: '"qty" is not searchable; searchable fields: name, code',
      },
    ]);
    expect(issues("searchBy=name,id")).toHaveLength(1);
  });

  it("accepts searchBy without search and leaves the data alone", () => {
    const q = parse("searchBy=code");
    expect(q.search).toBeUndefined();
    expect(toWhere(config, q)).toBeUndefined();
  });

  it("refuses search and searchBy on an endpoint without searchable fields", () => {
    expect(issues("search=a&searchBy=id", bare).map((e) => e.path)).toEqual([
      "query.search",
      "query.searchBy",
    ]);
    expect(issues("searchBy=id", bare).map((e) => e.path)).toEqual(["query.searchBy"]);
    expect(parse("search=&searchBy=", bare).search).toBeUndefined();
  });
});

describe("select", () => {
  it.each([
    ["", undefined],
    ["select=", undefined],
    ["select=name", ["name"]],
    ["select=name,code", ["name", "code"]],
    ["select=qty&select=name,code", ["qty", "name", "code"]],
    ["select=name,qty,name&select=qty,id", ["name", "qty", "id"]],
  ])("%j -> %j", (qs, select) => {
    expect(parse(qs).select).toEqual(select);
  });

  it("refuses a field that is not selectable", () => {
    expect(issues("select=name,status&select=price")).toEqual([
      {
        path: "query.select",
        message: '"status" is not selectable; selectable fields: id, name, code, qty',
      },
      {
        path: "query.select",
        message: '"price" is not selectable; selectable fields: id, name, code, qty',
      },
    ]);
  });

  it("refuses select on an endpoint without selectable fields", () => {
    expect(issues("select=id", bare)).toEqual([
      { path: "query.select", message: "this endpoint does not support select" },
    ]);
  });

  it("returns only the selected fields plus id, and meta.select in request order", () => {
    const rows = [
      { id: 1, name: "a", code: "A", qty: 3, status: "DRAFT" },
      { id: 2, name: "b", code: "B", qty: 4, status: "ACTIVE" },
    ];
    const res = env("select=qty,name&select=qty", rows, 2);
    expect(res.data).toEqual([
      { id: 1, qty: 3, name: "a" },
      { id: 2, qty: 4, name: "b" },
    ]);
    expect(Object.keys(res.data[0]!)).toEqual(["id", "qty", "name"]);
    expect(res.meta.select).toEqual(["qty", "name"]);
    expect(env("", rows, 2).data).toEqual(rows);
  });
});

describe("filters", () => {
  const JAN1 = Date.UTC(2025, 0, 1);
  it.each([
    ["filter.name=x", { field: "name", negate: false, op: "$eq", values: ["x"] }],
    ["filter.name=$eq:x", { field: "name", negate: false, op: "$eq", values: ["x"] }],
    ["filter.name=$not:x", { field: "name", negate: true, op: "$eq", values: ["x"] }],
    ["filter.name=$not:$eq:x", { field: "name", negate: true, op: "$eq", values: ["x"] }],
    ["filter.name=Foo%20Bar", { field: "name", negate: false, op: "$eq", values: ["Foo Bar"] }],
    ["filter.name=a:b", { field: "name", negate: false, op: "$eq", values: ["a:b"] }],
    ["filter.name=$eq:a:b", { field: "name", negate: false, op: "$eq", values: ["a:b"] }],
    ["filter.name=$in:a,b", { field: "name", negate: false, op: "$in", values: ["a", "b"] }],
    ["filter.name=$null", { field: "name", negate: false, op: "$null", values: [] }],
    ["filter.name=$not:$null", { field: "name", negate: true, op: "$null", values: [] }],
    ["filter.id=7", { field: "id", negate: false, op: "$eq", values: [7] }],
    ["filter.id=$in:1,2,3", { field: "id", negate: false, op: "$in", values: [1, 2, 3] }],
    ["filter.qty=$gte:-3", { field: "qty", negate: false, op: "$gte", values: [-3] }],
    ["filter.qty=$lt:10", { field: "qty", negate: false, op: "$lt", values: [10] }],
    ["filter.qty=$btw:1,5", { field: "qty", negate: false, op: "$btw", values: [1, 5] }],
    ["filter.active=true", { field: "active", negate: false, op: "$eq", values: [1] }],
    ["filter.active=TRUE", { field: "active", negate: false, op: "$eq", values: [1] }],
    ["filter.active=1", { field: "active", negate: false, op: "$eq", values: [1] }],
    ["filter.active=False", { field: "active", negate: false, op: "$eq", values: [0] }],
    ["filter.active=0", { field: "active", negate: false, op: "$eq", values: [0] }],
    ["filter.status=ACTIVE", { field: "status", negate: false, op: "$eq", values: ["ACTIVE"] }],
    ["filter.status=$not:DRAFT", { field: "status", negate: true, op: "$eq", values: ["DRAFT"] }],
    [
      "filter.status=$in:DRAFT,ARCHIVED",
      { field: "status", negate: false, op: "$in", values: ["DRAFT", "ARCHIVED"] },
    ],
    [
      "filter.validFrom=2025-01-01",
      { field: "validFrom", negate: false, op: "$eq", values: [JAN1] },
    ],
    [
      "filter.validFrom=$gte:2025-01-01",
      { field: "validFrom", negate: false, op: "$gte", values: [JAN1] },
    ],
    [
      "filter.validFrom=2025-01-01T10:30:00Z",
      { field: "validFrom", negate: false, op: "$eq", values: [JAN1 + 37_800_000] },
    ],
    [
      "filter.validFrom=$lt:2025-01-01T00:00:00.000Z",
      { field: "validFrom", negate: false, op: "$lt", values: [JAN1] },
    ],
    [
      "filter.validFrom=$not:2025-01-01T10:00:00%2B02:00",
      { field: "validFrom", negate: true, op: "$eq", values: [JAN1 + 8 * 3_600_000] },
    ],
    [
      "filter.validFrom=$not:$eq:2024-12-31T23:00:00-01:00",
      { field: "validFrom", negate: true, op: "$eq", values: [JAN1] },
    ],
  ])("%j", (qs, filter) => {
    expect(parse(qs).filters).toEqual([filter]);
  });

  it("compares date-times as instants, whatever the zone", () => {
    const a = parse("filter.validFrom=2025-01-01T01:00:00%2B01:00").filters[0]!.values;
    const b = parse("filter.validFrom=2025-01-01").filters[0]!.values;
    expect(a).toEqual(b);
  });

  const FILTERABLE = "filterable fields: id, name, qty, active, status, validFrom";
  it.each([
    ["filter.code=x", "code", FILTERABLE],
    ["filter.nope=x", "nope", FILTERABLE],
    ["filter.=x", "", FILTERABLE],
    ["filter.qty=$not:1", "qty", "$not is not allowed; allowed: $eq, $gte, $lt, $btw"],
    ["filter.id=$not:$gt:1", "id", "$not is not allowed"],
    ["filter.active=$gt:1", "active", "$gt is not allowed; allowed: $eq"],
    ["filter.name=$gt:a", "name", "$gt is not allowed; allowed: $eq, $in, $not, $null"],
    ["filter.qty=$in:1,2", "qty", "$in is not allowed"],
    ["filter.name=$EQ:x", "name", "unknown operator $EQ"],
    ["filter.name=$fake:x", "name", "unknown operator $fake"],
    ["filter.name=$or:x", "name", "unknown operator $or"],
    ["filter.name=$and:x", "name", "unknown operator $and"],
    ["filter.name=$not:$not:x", "name", "unknown operator $not; known: $eq, "],
    ["filter.name=$ilike:x", "name", "unknown operator $ilike"],
    ["filter.qty=1.5", "qty", "must be a number"],
    ["filter.qty=abc", "qty", "must be a number"],
    ["filter.qty=", "qty", "must be a number"],
    ["filter.qty=1e3", "qty", "must be a number"],
    ["filter.qty=$gte:0x10", "qty", "must be a number"],
    ["filter.qty=$btw:1", "qty", "$btw needs two values"],
    ["filter.qty=$btw:1,2,3", "qty", "$btw needs two values"],
    ["filter.qty=$btw:1,x", "qty", "must be a number"],
    ["filter.id=$in:1,,2", "id", "must be a number"],
    ["filter.id=99999999999999999999", "id", "must be a number"],
    ["filter.active=yes", "active", "must be a boolean"],
    ["filter.active=2", "active", "must be a boolean"],
    ["filter.active=", "active", "must be a boolean"],
    ["filter.status=active", "status", "must be one of DRAFT, ACTIVE, ARCHIVED"],
    ["filter.status=$in:DRAFT,Nope", "status", "must be one of DRAFT, ACTIVE, ARCHIVED"],
    ["filter.validFrom=2025-13-01", "validFrom", "must be an ISO 8601 date-time or date"],
    ["filter.validFrom=2025-02-30", "validFrom", "must be an ISO 8601 date-time or date"],
    ["filter.validFrom=2025-01-01T00:00:00", "validFrom", "must be an ISO 8601 date-time"],
    ["filter.validFrom=2025-01-01T25:00:00Z", "validFrom", "must be an ISO 8601 date-time"],
    ["filter.validFrom=yesterday", "validFrom", "must be an ISO 8601 date-time"],
    ["filter.validFrom=1735689600000", "validFrom", "must be an ISO 8601 date-time"],
    ["filter.validFrom=$gte:", "validFrom", "must be an ISO 8601 date-time"],
  ])("%j -> 400 at filter.%s", (qs, field, message) => {
    const errs = issues(qs);
    expect(errs).toHaveLength(1);
    expect(errs[0]!.path).toBe(`query.filter.${field}`);
    expect(errs[0]!.message).toContain(message);
  });

  it("refuses every filter on an endpoint without filterable fields", () => {
    expect(issues("filter.id=1", bare)).toEqual([
      { path: "query.filter.id", message: "this endpoint has no filterable fields" },
    ]);
  });

  it("ANDs repeated values and different fields, and keeps one of identical repeats", () => {
    const q = parse("filter.qty=$gte:1&filter.qty=$lt:9&filter.name=x&filter.qty=$gte:1");
    expect(q.filters.map((f) => [f.field, f.op, f.values])).toEqual([
      ["qty", "$gte", [1]],
      ["qty", "$lt", [9]],
      ["name", "$eq", ["x"]],
    ]);
    expect(render(toWhere(config, q))).toEqual({
      sql: `(${col("qty")} >= 1 and ${col("qty")} < 9 and ${col("name")} = ?)`,
      params: ["x"],
    });
  });

  it("reports every issue of one request together", () => {
    const qs = [
      "page=abc",
      "sortBy=nope:ASC",
      `search=${"x".repeat(101)}`,
      "searchBy=qty",
      "select=price",
      "filter.code=x",
      "filter.qty=abc",
      "filter.status=$fake:x",
      "cachebust=1",
    ].join("&");
    expect(issues(qs).map((e) => e.path)).toEqual([
      "query.sortBy",
      "query.search",
      "query.searchBy",
      "query.select",
      "query.filter.code",
      "query.filter.qty",
      "query.filter.status",
    ]);
  });

  it("ignores unknown parameters that do not start with filter.", () => {
    expect(parse("cachebust=1&filters.x=1&sort=name&page=2")).toMatchObject({
      page: 2,
      filters: [],
      filterInput: [],
    });
  });
});

describe("meta", () => {
  it("has the keys in contract order", () => {
    const res = env(
      "filter.qty=$gte:1&select=name&searchBy=code&search=a&sortBy=name:asc&limit=5&page=2",
      [],
      12,
    );
    expect(Object.keys(res)).toEqual(["data", "meta", "links"]);
    expect(Object.keys(res.meta)).toEqual([
      "itemsPerPage",
      "totalItems",
      "currentPage",
      "totalPages",
      "sortBy",
      "search",
      "searchBy",
      "select",
      "filter",
    ]);
    expect(res.meta).toEqual({
      itemsPerPage: 5,
      totalItems: 12,
      currentPage: 2,
      totalPages: 3,
      sortBy: [["name", "ASC"]],
      search: "a",
      searchBy: ["code"],
      select: ["name"],
      filter: { qty: "$gte:1" },
    });
  });

  it.each([
    ["", []],
    ["search=", []],
    ["searchBy=code", []],
    ["search=a", ["search", "searchBy"]],
    ["select=", []],
    ["select=name", ["select"]],
    ["filter.name=", ["filter"]],
    ["search=a&select=code&filter.qty=1", ["search", "searchBy", "select", "filter"]],
  ])("%j adds %j to the always-present keys", (qs, extra) => {
    const meta = env(qs, [], 0).meta;
    expect(Object.keys(meta)).toEqual([
      "itemsPerPage",
      "totalItems",
      "currentPage",
      "totalPages",
      "sortBy",
      ...extra,
    ]);
    expect(Object.values(meta)).not.toContain(null);
    expect(Object.values(meta)).not.toContain(undefined);
  });

  it("gives meta.searchBy as the effective fields", () => {
    expect(env("search=a", [], 0).meta.searchBy).toEqual(["name", "code"]);
    expect(env("search=a&searchBy=code,code", [], 0).meta.searchBy).toEqual(["code"]);
  });

  it("gives filters as received: a string, or an array when repeated", () => {
    const meta = env(
      "filter.name=a&filter.qty=$gte:1&filter.name=$not:b&filter.name=a&filter.validFrom=$gte:2025-01-01T00:00:00Z",
      [],
      0,
    ).meta;
    expect(meta.filter).toEqual({
      name: ["a", "$not:b", "a"],
      qty: "$gte:1",
      validFrom: "$gte:2025-01-01T00:00:00Z",
    });
  });

  it.each([
    [0, 20, 0],
    [1, 20, 1],
    [20, 20, 1],
    [21, 20, 2],
    [12, 5, 3],
    [100, 100, 1],
    [101, 100, 2],
  ])("%i items at limit %i make %i pages", (total, limit, pages) => {
    const meta = env(`limit=${limit}`, [], total).meta;
    expect(meta.totalPages).toBe(pages);
    expect(meta.itemsPerPage).toBe(limit);
    expect(meta.totalItems).toBe(total);
  });

  it("tells the truth past the last page", () => {
    const res = env("page=5&limit=5", [], 12);
    expect(res.data).toEqual([]);
    expect(res.meta).toMatchObject({ currentPage: 5, totalPages: 3, totalItems: 12 });
    expect(res.links).toEqual({
      first: `${BASE}page=1&limit=5&sortBy=id:DESC`,
      previous: `${BASE}page=4&limit=5&sortBy=id:DESC`,
      current: `${BASE}page=5&limit=5&sortBy=id:DESC`,
    });
  });

  it("reports itemsPerPage as the limit, not the rows on the page", () => {
    expect(env("limit=50", [{ id: 1 }], 1).meta.itemsPerPage).toBe(50);
  });
});

describe("links", () => {
  it("reproduces the 12-channels example of docs/list-queries.md §9 exactly", () => {
    const channelConfig: ListConfig = {
      fields: {
        id: { column: things.id, type: "number", sortable: true },
        name: { column: things.name, type: "text", sortable: true },
      },
    };
    const origin = "http://localhost:8787";
    const requestUrl = new URL(`${origin}/v1/api/channel?limit=5&page=2&sortBy=name:asc`);
    const query = parseListQuery([...requestUrl.searchParams], channelConfig);
    const res = envelope(requestUrl, query, [], 12);
    expect(res.meta).toEqual({
      itemsPerPage: 5,
      totalItems: 12,
      currentPage: 2,
      totalPages: 3,
      sortBy: [["name", "ASC"]],
    });
    const base = `${origin}/v1/api/channel`;
    expect(res.links).toEqual({
      first: `${base}?page=1&limit=5&sortBy=name:ASC`,
      previous: `${base}?page=1&limit=5&sortBy=name:ASC`,
      current: `${base}?page=2&limit=5&sortBy=name:ASC`,
      next: `${base}?page=3&limit=5&sortBy=name:ASC`,
      last: `${base}?page=3&limit=5&sortBy=name:ASC`,
    });
    expect(Object.keys(res.links)).toEqual(["first", "previous", "current", "next", "last"]);
  });

  it("carries the effective state in contract order, dropping unknown parameters", () => {
    const res = env(
      "filter.qty=$gte:1&cachebust=9&select=name,code&searchBy=code&search=a%20b&sortBy=qty:desc,name:asc&limit=5&page=2&filter.name=$not:x",
      [],
      12,
    );
    expect(res.links.current).toBe(
      `${BASE}page=2&limit=5&sortBy=qty:DESC&sortBy=name:ASC&search=a%20b&searchBy=code&select=name,code&filter.qty=$gte:1&filter.name=$not:x`,
    );
  });

  it("uses the effective values, not the raw ones", () => {
    expect(env("page=abc&limit=500&select=name&select=code,name", [], 1).links.current).toBe(
      `${BASE}page=1&limit=100&sortBy=id:DESC&select=name,code`,
    );
    expect(env("sortBy=name:asc,name:desc&sortBy=qty:DESC", [], 1).links.current).toBe(
      `${BASE}page=1&limit=20&sortBy=name:ASC&sortBy=qty:DESC`,
    );
  });

  it("lists searchBy only when the request had it", () => {
    expect(env("search=a", [], 1).links.current).toBe(
      `${BASE}page=1&limit=20&sortBy=id:DESC&search=a`,
    );
    expect(env("search=a&searchBy=name,code", [], 1).links.current).toBe(
      `${BASE}page=1&limit=20&sortBy=id:DESC&search=a&searchBy=name&searchBy=code`,
    );
  });

  it("percent-encodes values but keeps $ : and , literal", () => {
    const search = encodeURIComponent("50% a&b=c/d?e#f+g\\h é $:,");
    const res = env(`search=${search}&filter.name=${encodeURIComponent("x&y=$z:1,2")}`, [], 1);
    expect(res.links.current).toBe(
      `${BASE}page=1&limit=20&sortBy=id:DESC&search=50%25%20a%26b%3Dc%2Fd%3Fe%23f%2Bg%5Ch%20%C3%A9%20$:,&filter.name=x%26y%3D$z:1,2`,
    );
    // Following the link gives back the same query.
    const again = parse(new URL(res.links.current).search.slice(1));
    expect(again.search).toBe("50% a&b=c/d?e#f+g\\h é $:,");
    expect(again.filterInput).toEqual([["name", "x&y=$z:1,2"]]);
  });

  it.each([
    // [query, totalItems, link keys]
    ["", 0, ["current"]],
    ["", 20, ["current"]],
    ["", 21, ["current", "next", "last"]],
    ["page=2", 21, ["first", "previous", "current"]],
    ["page=2", 41, ["first", "previous", "current", "next", "last"]],
    ["page=3", 41, ["first", "previous", "current"]],
    ["page=9", 41, ["first", "previous", "current"]],
    ["page=2", 0, ["first", "previous", "current"]],
  ])("%j of %i items has links %j", (qs, total, keys) => {
    expect(Object.keys(env(qs, [], total).links)).toEqual(keys);
  });

  it("points previous at page - 1 and last at totalPages", () => {
    const links = env("page=3&limit=10", [], 95).links;
    expect(links.first).toBe(`${BASE}page=1&limit=10&sortBy=id:DESC`);
    expect(links.previous).toBe(`${BASE}page=2&limit=10&sortBy=id:DESC`);
    expect(links.current).toBe(`${BASE}page=3&limit=10&sortBy=id:DESC`);
    expect(links.next).toBe(`${BASE}page=4&limit=10&sortBy=id:DESC`);
    expect(links.last).toBe(`${BASE}page=10&limit=10&sortBy=id:DESC`);
  });
});

describe("SQL", () => {
  it("gives no where clause without filters or search", () => {
    expect(toWhere(config, parse("page=2&sortBy=name:asc&select=name"))).toBeUndefined();
  });

  it.each([
    ["filter.id=7", `${col("id")} = 7`],
    ["filter.id=$gt:7", `${col("id")} > 7`],
    ["filter.id=$in:1,2,3", `${col("id")} in (1, 2, 3)`],
    ["filter.qty=$gte:-3", `${col("qty")} >= -3`],
    ["filter.qty=$lt:10", `${col("qty")} < 10`],
    ["filter.qty=$btw:1,5", `${col("qty")} between 1 and 5`],
    ["filter.active=true", `${col("active")} = 1`],
    ["filter.active=FALSE", `${col("active")} = 0`],
    ["filter.status=ACTIVE", `${col("status")} = 'ACTIVE'`],
    ["filter.status=$not:DRAFT", `not ${col("status")} = 'DRAFT'`],
    ["filter.status=$in:DRAFT,ARCHIVED", `${col("status")} in ('DRAFT', 'ARCHIVED')`],
    ["filter.validFrom=2025-01-01", `${col("valid_from")} = 1735689600000`],
    ["filter.validFrom=$gte:2025-01-01T10:00:00%2B02:00", `${col("valid_from")} >= 1735718400000`],
    ["filter.validFrom=$not:$lt:2025-01-01", `not ${col("valid_from")} < 1735689600000`],
    ["filter.name=$null", `${col("name")} is null`],
    ["filter.name=$not:$null", `not ${col("name")} is null`],
  ])("%j inlines %j with no bound parameter", (qs, expected) => {
    expect(where(qs)).toEqual({ sql: expected, params: [] });
  });

  it.each([
    ["filter.name=x", `${col("name")} = ?`, ["x"]],
    ["filter.name=$not:x", `not ${col("name")} = ?`, ["x"]],
    [
      "filter.name=x'); drop table things; --",
      `${col("name")} = ?`,
      ["x'); drop table things; --"],
    ],
    [
      "filter.name=$in:a,b'c",
      `${col("name")} in (select value from json_each(?))`,
      [JSON.stringify(["a", "b'c"])],
    ],
  ])("%j binds text values", (qs, expected, params) => {
    expect(where(qs)).toMatchObject({ sql: expected, params });
  });

  it("keeps 1000 enum and number filters free of bound parameters", () => {
    const ops = ["", "$not:", "$in:DRAFT,"];
    const pairs = Array.from(
      { length: 1000 },
      (_, i) => `filter.status=${ops[i % 3]}${STATUSES[Math.floor(i / 3) % 3]}`,
    );
    expect(pairs).toHaveLength(1000);
    const q = parse(pairs.join("&"));
    expect(q.filterInput).toHaveLength(1000);
    const enums = render(toWhere(config, q));
    expect(enums.params).toEqual([]);
    expect(enums.sql).toContain(`${col("status")} = 'DRAFT'`);

    const numbers = Array.from({ length: 1000 }, (_, i) => `filter.qty=$gte:${i}`).join("&");
    const rendered = where(numbers);
    expect(rendered.params).toEqual([]);
    expect(rendered.sql.match(/>=/g)).toHaveLength(1000);
  });

  it("caps bound text filter values below D1's 100 parameters", () => {
    const text = (n: number) => Array.from({ length: n }, (_, i) => `filter.name=$not:v${i}`);
    expect(where(text(80).join("&")).params).toHaveLength(80);
    expect(issues(text(81).join("&"))).toEqual([
      {
        path: "query.filter",
        message: "at most 80 distinct text filter values per request (an $in list counts once)",
      },
    ]);
    // Identical repeats collapse, and an $in list is one JSON parameter.
    expect(where([...text(80), ...text(80)].join("&")).params).toHaveLength(80);
    const big = Array.from({ length: 500 }, (_, i) => `v${i}`).join(",");
    expect(where(`filter.name=$in:${big}`).params).toHaveLength(1);
  });

  it("searches with instr over lower(), OR-ed across the fields, as bound parameters", () => {
    expect(where("search=50%25_\\")).toEqual({
      sql: `(instr(lower(${col("name")}), lower(?)) > 0 or instr(lower(${col("code")}), lower(?)) > 0)`,
      params: ["50%_\\", "50%_\\"],
    });
    expect(where("search=Ab&searchBy=code")).toEqual({
      sql: `instr(lower(${col("code")}), lower(?)) > 0`,
      params: ["Ab"],
    });
    expect(where("search=Ab&searchBy=code&filter.status=ACTIVE")).toEqual({
      sql: `(${col("status")} = 'ACTIVE' and instr(lower(${col("code")}), lower(?)) > 0)`,
      params: ["Ab"],
    });
    expect(where(`search=${"ab".repeat(50)}`).sql).not.toContain("like");
  });

  it.each([
    ["", `${col("id")} desc`],
    ["sortBy=id:asc", `${col("id")} asc`],
    ["sortBy=name:asc", `lower(${col("name")}) asc, ${col("id")} asc`],
    ["sortBy=name:desc", `lower(${col("name")}) desc, ${col("id")} desc`],
    ["sortBy=qty:DESC", `${col("qty")} desc, ${col("id")} desc`],
    ["sortBy=qty:desc,name:asc", `${col("qty")} desc, lower(${col("name")}) asc, ${col("id")} asc`],
    [
      "sortBy=name:asc,validFrom:desc",
      `lower(${col("name")}) asc, ${col("valid_from")} desc, ${col("id")} desc`,
    ],
    ["sortBy=id:asc,name:desc", `${col("id")} asc, lower(${col("name")}) desc`],
    ["sortBy=name:desc,id:asc", `lower(${col("name")}) desc, ${col("id")} asc`],
  ])("%j orders by %s", (qs, expected) => {
    expect(orderBy(qs)).toEqual({ sql: expected, params: [] });
  });

  it("appends the id tiebreak after a default sort on another field", () => {
    const cfg: ListConfig = { ...config, defaultSortBy: [["name", "ASC"]] };
    expect(orderBy("", cfg).sql).toBe(`lower(${col("name")}) asc, ${col("id")} asc`);
  });
});

describe("listParameters", () => {
  const byName = (cfg: ListConfig) => new Map(listParameters(cfg).map((p) => [p.name, p]));

  it("documents every parameter from the config", () => {
    const params = listParameters(config);
    expect(params.map((p) => p.name)).toEqual([
      "page",
      "limit",
      "sortBy",
      "search",
      "searchBy",
      "select",
      "filter.id",
      "filter.name",
      "filter.qty",
      "filter.active",
      "filter.status",
      "filter.validFrom",
    ]);
    expect(params.every((p) => p.in === "query" && p.required === false)).toBe(true);
  });

  it("lists the sortable terms as the sortBy enum", () => {
    const sortBy = byName(config).get("sortBy")!;
    expect(sortBy.schema).toEqual({
      type: "array",
      items: {
        type: "string",
        enum: [
          "id:ASC",
          "id:DESC",
          "name:ASC",
          "name:DESC",
          "qty:ASC",
          "qty:DESC",
          "validFrom:ASC",
          "validFrom:DESC",
        ],
      },
    });
    expect(sortBy.example).toEqual(["id:DESC"]);
    expect(byName({ ...config, defaultSortBy: [["name", "ASC"]] }).get("sortBy")!.example).toEqual([
      "name:ASC",
    ]);
  });

  it("documents page, limit, search and searchBy limits", () => {
    const p = byName(config);
    expect(p.get("page")!.schema).toMatchObject({ type: "integer", minimum: 1, default: 1 });
    expect(p.get("limit")!.schema).toMatchObject({ maximum: 100, default: 20 });
    expect(p.get("search")!.schema).toEqual({ type: "string", maxLength: 100 });
    expect(p.get("search")!.description).toContain("name, code");
    expect(p.get("searchBy")!.schema).toEqual({
      type: "array",
      items: { type: "string", enum: ["name", "code"] },
    });
    expect(p.get("select")!.description).toContain("id, name, code, qty");
  });

  it("puts each field's operators, type and the null rule into its filter description", () => {
    const p = byName(config);
    expect(p.get("filter.qty")!.description).toContain("Allowed: $eq, $gte, $lt, $btw.");
    expect(p.get("filter.active")!.description).toContain("Allowed: $eq.");
    expect(p.get("filter.name")!.description).toContain("Allowed: $eq, $in, $not, $null.");
    expect(p.get("filter.status")!.description).toContain("one of DRAFT, ACTIVE, ARCHIVED");
    // Examples sit in the description: Swagger UI would pre-fill an `example` into Try it out.
    expect(p.get("filter.status")!.example).toBeUndefined();
    expect(p.get("filter.status")!.description).toContain("Example: `filter.status=DRAFT`.");
    expect(p.get("filter.validFrom")!.description).toContain(
      "Example: `filter.validFrom=$gte:2025-01-01`.",
    );
    expect(p.get("filter.qty")!.description).toContain("Example: `filter.qty=$gte:10`.");
    for (const name of ["filter.qty", "filter.status", "filter.validFrom"]) {
      expect(p.get(name)!.description).toContain("null matches neither");
      expect(p.get(name)!).toMatchObject({ style: "form", explode: true });
    }
  });

  it("leaves out search, searchBy, select and filters when the endpoint has none", () => {
    expect(listParameters(bare).map((p) => p.name)).toEqual(["page", "limit", "sortBy"]);
  });
});
