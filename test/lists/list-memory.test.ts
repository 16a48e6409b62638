import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { itemField, pageInMemory, type ListConfig } from "../../src/list";
import { parseListQuery } from "../../src/list/parse";
import { toOrderBy, toWhere } from "../../src/list/sql";

/**
 * docs/list-queries.md §12: a list paged in memory answers a query exactly as SQLite answers it
 * on a table with the same rows (the same query, run both ways), except that enum fields sort
 * in their vocabulary's order and ties keep the array's order.
 */

const STATUSES = ["DRAFT", "ACTIVE", "ARCHIVED"] as const;

interface Item {
  id: number;
  name: string | null;
  qty: number | null;
  active: boolean;
  status: (typeof STATUSES)[number];
}

const items: Item[] = [
  { id: 1, name: "alpha", qty: 5, active: true, status: "ACTIVE" },
  { id: 2, name: "Beta", qty: null, active: false, status: "DRAFT" },
  { id: 3, name: "gamma%", qty: 20, active: true, status: "ARCHIVED" },
  { id: 4, name: null, qty: 5, active: false, status: "ACTIVE" },
  { id: 5, name: "ALPHA two", qty: -3, active: true, status: "DRAFT" },
  { id: 6, name: "Äpfel", qty: 12, active: true, status: "ACTIVE" },
  { id: 7, name: "delta", qty: 5, active: false, status: "ARCHIVED" },
];

const table = sqliteTable("memory_items", {
  id: integer("id").primaryKey(),
  name: text("name"),
  qty: integer("qty"),
  active: integer("active", { mode: "boolean" }),
  status: text("status"),
});

const fields = (column: (name: keyof Item) => ListConfig["fields"][string]["column"]) => ({
  id: { column: column("id"), type: "number" as const, sortable: true, filter: ["$gt" as const] },
  name: {
    column: column("name"),
    type: "text" as const,
    sortable: true,
    searchable: true,
    filter: ["$in" as const, "$not" as const, "$null" as const],
  },
  qty: {
    column: column("qty"),
    type: "number" as const,
    sortable: true,
    filter: ["$gte" as const, "$lt" as const, "$btw" as const, "$not" as const, "$null" as const],
  },
  active: { column: column("active"), type: "boolean" as const, filter: [] },
  status: {
    column: column("status"),
    type: STATUSES,
    sortable: true,
    filter: ["$in" as const, "$not" as const],
  },
});

const sqlConfig: ListConfig = { fields: fields((name) => table[name]) };
const memoryConfig: ListConfig = { fields: fields(itemField) };

const QUERIES = [
  "",
  "sortBy=name:ASC,id:ASC",
  "sortBy=name:DESC,id:ASC",
  "sortBy=qty:ASC,id:ASC",
  "sortBy=qty:DESC,name:ASC,id:ASC&limit=3&page=2",
  "filter.name=$not:alpha",
  "filter.name=$null&sortBy=id:ASC",
  "filter.name=$not:$null&sortBy=id:ASC",
  "filter.name=$in:alpha,Beta,nope",
  "filter.qty=$gte:5&filter.qty=$lt:20",
  "filter.qty=$btw:-3,5",
  "filter.qty=$not:5",
  "filter.qty=$not:$btw:0,10",
  "filter.active=true",
  "filter.active=0",
  "filter.status=$in:DRAFT,ARCHIVED&filter.status=$not:ARCHIVED",
  "search=alpha",
  "search=ALP&sortBy=id:ASC",
  "search=%",
  "search=äp",
  "filter.id=$gt:2&search=a&limit=2",
];

const db = () => drizzle(env.DB);

beforeAll(async () => {
  await env.DB.exec(
    "create table memory_items (id integer primary key, name text, qty integer, active integer, status text)",
  );
  await env.DB.batch(
    items.map((i) =>
      env.DB.prepare("insert into memory_items values (?, ?, ?, ?, ?)").bind(
        i.id,
        i.name,
        i.qty,
        i.active ? 1 : 0,
        i.status,
      ),
    ),
  );
});

function request(config: ListConfig, query: string) {
  const parsed = parseListQuery([...new URLSearchParams(query)], config);
  return { query: parsed, limit: parsed.limit, offset: (parsed.page - 1) * parsed.limit };
}

describe("pageInMemory", () => {
  it.each(QUERIES)("answers %j as SQLite does", async (query) => {
    const sqlList = request(sqlConfig, query);
    const where = toWhere(sqlConfig, sqlList.query);
    const rows = await db()
      .select({ id: table.id })
      .from(table)
      .where(where)
      .orderBy(...toOrderBy(sqlConfig, sqlList.query))
      .limit(sqlList.limit)
      .offset(sqlList.offset);
    const total = await db().$count(table, where);

    const page = pageInMemory(memoryConfig, request(memoryConfig, query), items);
    expect(page.rows.map((i) => i.id)).toEqual(rows.map((r) => r.id));
    expect(page.total).toBe(total);
  });

  it("sorts an enum in its vocabulary's order and keeps the items' order for ties", () => {
    const asc = pageInMemory(memoryConfig, request(memoryConfig, "sortBy=status:ASC"), items);
    expect(asc.rows.map((i) => i.id)).toEqual([2, 5, 1, 4, 6, 3, 7]);
    const desc = pageInMemory(memoryConfig, request(memoryConfig, "sortBy=status:DESC"), items);
    expect(desc.rows.map((i) => i.id)).toEqual([3, 7, 1, 4, 6, 2, 5]);
  });
});
