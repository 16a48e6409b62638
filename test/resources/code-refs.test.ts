import { sql, type SQL } from "drizzle-orm";
import { integer, SQLiteSyncDialect, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { defineRefs } from "../../src/db/refs";
import { channels, productGroups } from "../../src/db/schema";
import { defineList, refFilters } from "../../src/list";
import { parseListQuery } from "../../src/list/parse";
import { toWhere } from "../../src/list/sql";

/**
 * Unit tests of foreign keys by code (src/db/refs.ts) on an owner with two of them, without a
 * Worker: what a declaration gives reads, lists, create/update and bulk upserts. The products
 * resource runs the one real declaration end to end (test/resources/products.test.ts,
 * bulk-upserts).
 */

const items = sqliteTable("items", {
  id: integer("id").primaryKey(),
  code: text("code").notNull(),
  name: text("name").notNull(),
  groupId: integer("group_id"),
  channelId: integer("channel_id"),
});

const refs = defineRefs(items, {
  groupCode: { key: "groupId", to: productGroups, noun: "product group" },
  channelCode: { key: "channelId", to: channels, noun: "channel" },
});

const dialect = new SQLiteSyncDialect();
const render = (s: SQL | undefined) => dialect.sqlToQuery(s ?? sql``);

describe("reads", () => {
  it("select each target's code by a scalar subquery, aliased by the field", () => {
    const { groupCode, channelCode } = refs.columns;
    expect(render(groupCode.sql).sql).toBe(
      '(select "product_groups"."code" from "product_groups" where "product_groups"."id" = "items"."group_id")',
    );
    expect(render(channelCode.sql).sql).toBe(
      '(select "channels"."code" from "channels" where "channels"."id" = "items"."channel_id")',
    );
    expect([groupCode.fieldAlias, channelCode.fieldAlias]).toEqual(["group_code", "channel_code"]);
  });
});

describe("lists", () => {
  const list = defineList({
    fields: { id: { column: items.id, type: "number" }, ...refFilters(refs) },
  });
  const where = (qs: string) =>
    render(toWhere(list.config, parseListQuery([...new URLSearchParams(qs)], list.config)));

  it("filter by a code: the key equals the target's id by code, no join", () => {
    const { sql: text, params } = where("filter.groupCode=SCREWS");
    expect(text).toBe(
      '"items"."group_id" = (select "product_groups"."id" from "product_groups" where "product_groups"."code" = ?)',
    );
    expect(params).toEqual(["SCREWS"]);
  });

  it("$null: the owners without a target", () => {
    expect(where("filter.channelCode=$null").sql).toBe('"items"."channel_id" is null');
  });

  it("takes no other operator", () => {
    expect(() => where("filter.groupCode=$in:A,B")).toThrow();
  });
});

describe("create and update", () => {
  it("resolves the named codes to ids, null to none, and leaves absent ones out", () => {
    const input = { code: "I-1", groupCode: "SCREWS", channelCode: null };
    expect(refs.resolve(input, [[{ id: 7 }]])).toEqual({
      ids: { groupId: 7, channelId: null },
      issues: [],
    });
    expect(refs.resolve({ groupCode: undefined }, [])).toEqual({ ids: {}, issues: [] });
  });

  it("names each unknown code on its field", () => {
    const input = { groupCode: "NOPE", channelCode: "WEB" };
    expect(refs.resolve(input, [[], [{ id: 3 }]])).toEqual({
      ids: { channelId: 3 },
      issues: [{ path: "body.groupCode", message: "unknown product group NOPE" }],
    });
  });

  it("words a write the foreign key refused as the codes it named", () => {
    expect(refs.gone({ groupCode: "G", channelCode: null })).toEqual([
      { path: "body.groupCode", message: "unknown product group G" },
    ]);
  });

  it("splits a body into the record's own fields and the codes to answer with", () => {
    const input = { code: "I-1", name: "Item", groupCode: "G" };
    expect(refs.withoutRefs(input)).toEqual({ code: "I-1", name: "Item" });
    expect(refs.codesOf(input)).toEqual({ groupCode: "G", channelCode: null });
    expect(refs.nulls).toEqual({ groupId: null, channelId: null });
  });
});

describe("bulk upserts", () => {
  const judge = refs.judge({
    groupCode: [{ id: 7, code: "SCREWS" }],
    channelCode: [{ id: 3, code: "WEB" }],
  });

  it("a row's ids: named codes by the facts, absent ones kept from the stored record", () => {
    const stored = { code: "I-1", name: "Item", groupId: 5, channelId: 9 };
    expect(judge({ groupCode: "SCREWS" }, stored, "body.items.0")).toEqual({
      ids: { groupId: 7, channelId: 9 },
      issues: [],
    });
    expect(judge({ channelCode: null }, { ...refs.nulls }, "body.items.1")).toEqual({
      ids: { groupId: null, channelId: null },
      issues: [],
    });
  });

  it("an unknown code is an issue at the row's field", () => {
    expect(judge({ channelCode: "SHOP" }, refs.nulls, "body.items.12").issues).toEqual([
      { path: "body.items.12.channelCode", message: "unknown channel SHOP" },
    ]);
  });

  it("the facts read every target the rows name: a part per ref, its codes one JSON parameter", () => {
    const parts = refs.facts([{ groupCode: "A" }, { groupCode: "B", channelCode: null }, {}]);
    expect(Object.keys(parts)).toEqual(["groupCode", "channelCode"]);
    const group = render(parts.groupCode);
    expect(group.sql).toMatch(
      /^select json_object\('id', .*, 'code', .*\) as fact from "product_groups" where /,
    );
    expect(group.params).toEqual(['["A","B"]']);
    expect(render(parts.channelCode).params).toEqual(["[]"]);
  });
});
