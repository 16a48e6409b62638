import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { insertRows } from "../../src/db/bulk";
import { jsonChunks, MAX_JSON_BYTES, utf8Bytes } from "../../src/db/chunks";
import { createDb, DbMeter } from "../../src/db/client";
import { customers } from "../../src/db/schema";
import { createPricelist } from "../factories";
import { api, expectProblem, roundTrips, uid } from "../shared/helpers";
import { auditOf } from "../shared/bulk-upsert";

/**
 * Bulk bodies at the documented limits (docs/api/relations.md §5.12,
 * docs/api/errors-and-limits.md §8): 1000 rows, 1 MiB. What one statement binds is cut into chunks
 * under D1's 2 MB limit on a string (src/db/chunks.ts), and the chunks run in the one batch; the
 * audit trail records memberships per customer (§11.1).
 */

/** Bodies of a million bytes take seconds on a loaded machine; the default 5 s is for small ones. */
const LARGE = 60_000;

const putCustomers = (rows: unknown[]) =>
  api("PUT", "/v1/api/customer", { body: { customers: rows } });

/** Creates customer groups with the given codes in one bulk call; their ids by code. */
async function groupsWithCodes(codes: string[]) {
  const res = await api("PUT", "/v1/api/customer-group", {
    body: { customerGroups: codes.map((code) => ({ code, name: `Group ${code}` })) },
  });
  expect(res.status).toBe(200);
  const { results } = await env.DB.prepare(
    "select id, code from customer_groups where code in (select value from json_each(?))",
  )
    .bind(JSON.stringify(codes))
    .all<{ id: number; code: string }>();
  return new Map(results.map((row) => [row.code, row.id]));
}

/** The memberships of the customers with these codes, as `customer code → group codes`. */
async function membershipsOf(codes: string[]) {
  const { results } = await env.DB.prepare(
    `select c.code as customer, g.code as grp from customer_group_members m
       join customers c on c.id = m.customer_id join customer_groups g on g.id = m.customer_group_id
       where c.code in (select value from json_each(?))`,
  )
    .bind(JSON.stringify(codes))
    .all<{ customer: string; grp: string }>();
  const byCustomer = new Map<string, string[]>();
  for (const { customer, grp } of results)
    byCustomer.set(customer, [...(byCustomer.get(customer) ?? []), grp]);
  for (const list of byCustomer.values()) list.sort();
  return byCustomer;
}

/** Every audit entry of a request, straight from D1 (the API pages by 100). */
async function entriesOf(res: { headers: Headers }) {
  const { results } = await env.DB.prepare(
    "select entity, action, entity_key, before, after from audit_log where request_id = ? order by id",
  )
    .bind(res.headers.get("x-request-id"))
    .all<{
      entity: string;
      action: string;
      entity_key: string;
      before: string | null;
      after: string | null;
    }>();
  return results.map((row) => ({
    entity: row.entity,
    action: row.action,
    key: JSON.parse(row.entity_key) as Record<string, unknown>,
    row: JSON.parse(row.after ?? row.before ?? "null") as Record<string, unknown>,
  }));
}

const count = (entries: { entity: string; action: string }[]) => {
  const counts: Record<string, number> = {};
  for (const { entity, action } of entries)
    counts[`${action} ${entity}`] = (counts[`${action} ${entity}`] ?? 0) + 1;
  return counts;
};

describe("PUT /v1/api/customer at the limits", () => {
  it(
    "1,000 customers × 60 groups: every membership stored, one membership entry per customer",
    async () => {
      const groupCodes = Array.from({ length: 61 }, () => uid("G"));
      const ids = await groupsWithCodes(groupCodes);
      const sixty = groupCodes.slice(0, 60);
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        code: uid("C"),
        name: `Customer ${i}`,
        customerGroupCodes: sixty,
      }));
      const codes = rows.map((row) => row.code);
      const res = await putCustomers(rows);
      expect(res.status).toBe(200);
      expect(res.body.created).toEqual(codes);
      expect(roundTrips(res)).toBeLessThanOrEqual(3);
      const stored = await membershipsOf(codes);
      expect([...stored.values()].flat()).toHaveLength(60_000);
      expect(stored.get(codes[999]!)).toEqual([...sixty].sort());

      // The audit: each customer's INSERT, and one entry listing its 60 groups (not 60 entries).
      const entries = await entriesOf(res);
      expect(count(entries)).toEqual({
        "INSERT customer": 1000,
        "INSERT customerGroupMember": 1000,
      });
      const { id: customerId } = (await api("GET", `/v1/api/customer/${codes[0]}`)).body;
      const first = entries.find((e) => e.entity === "customerGroupMember")!;
      const sixtyIds = sixty.map((code) => ids.get(code)!).sort((a, b) => a - b);
      expect(first).toEqual({
        entity: "customerGroupMember",
        action: "INSERT",
        key: { customerId },
        row: { customerId, customerGroupIds: sixtyIds },
      });
      expect((await auditOf(res)).total).toBe(2000);

      // One group swapped per customer: a DELETE and an INSERT entry each, naming that group.
      const spare = groupCodes[60]!;
      const moved = rows.map((row, i) => ({
        ...row,
        customerGroupCodes: sixty.map((code, g) => (g === i % 60 ? spare : code)),
      }));
      const move = await putCustomers(moved);
      expect(move.body).toEqual({ created: [], updated: codes, unchanged: 0 });
      const after = await membershipsOf(codes);
      expect([...after.values()].flat()).toHaveLength(60_000);
      expect(after.get(codes[1]!)).toEqual(moved[1]!.customerGroupCodes.sort());
      const changes = await entriesOf(move);
      expect(count(changes)).toEqual({
        "DELETE customerGroupMember": 1000,
        "INSERT customerGroupMember": 1000,
      });
      expect(changes.slice(0, 2)).toEqual([
        {
          entity: "customerGroupMember",
          action: "DELETE",
          key: { customerId },
          row: { customerId, customerGroupIds: [ids.get(sixty[0]!)] },
        },
        {
          entity: "customerGroupMember",
          action: "INSERT",
          key: { customerId },
          row: { customerId, customerGroupIds: [ids.get(spare)] },
        },
      ]);
    },
    LARGE,
  );

  it(
    "the densest body the 1 MiB limit allows (150,000 memberships) succeeds; one bad row in it writes nothing",
    async () => {
      const groupCodes = Array.from(
        { length: 150 },
        (_, i) => `Z${i.toString(36).padStart(2, "0")}`,
      );
      await groupsWithCodes(groupCodes);
      const prefix = uid("C");
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        code: `${prefix}-${i}-`.padEnd(64, "X"),
        name: `Customer ${i}`,
        customerGroupCodes: groupCodes,
      }));
      const body = JSON.stringify({ customers: rows });
      expect(utf8Bytes(body)).toBeGreaterThan(1_000_000);
      expect(utf8Bytes(body)).toBeLessThanOrEqual(1 << 20);
      // Its link rows bind far more than D1 takes in one string: they go in chunks.
      const pairs = rows.flatMap((row) =>
        groupCodes.map((target) => ({ owner: row.code, target })),
      );
      expect(jsonChunks(pairs).length).toBeGreaterThan(10);

      const codes = rows.map((row) => row.code);
      const res = await putCustomers(rows);
      expect(res.status).toBe(200);
      expect(res.body.created).toHaveLength(1000);
      expect([...(await membershipsOf(codes)).values()].flat()).toHaveLength(150_000);
      expect(count(await entriesOf(res))).toEqual({
        "INSERT customer": 1000,
        "INSERT customerGroupMember": 1000,
      });

      const again = await putCustomers(rows);
      expect(again.body).toEqual({ created: [], updated: [], unchanged: 1000 });

      // One group out of every customer: judged on the 150,000 stored links, which the write's
      // guard reads again.
      const fewer = groupCodes.slice(1);
      const moved = await putCustomers(rows.map((row) => ({ ...row, customerGroupCodes: fewer })));
      expect(moved.body).toEqual({ created: [], updated: codes, unchanged: 0 });
      expect(count(await entriesOf(moved))).toEqual({ "DELETE customerGroupMember": 1000 });
      expect([...(await membershipsOf(codes)).values()].flat()).toHaveLength(149_000);

      // Every row renamed and given all groups back, but the last names a group that does not
      // exist: a 400 naming it, and nothing of the other 999 rows is written.
      const changed = rows.map((row, i) => ({
        ...row,
        name: `Renamed ${i}`,
        customerGroupCodes: i === 999 ? [...groupCodes, "NOPE"] : groupCodes,
      }));
      const refused = await putCustomers(changed);
      expect(expectProblem(refused, 400, "VALIDATION_FAILED").errors).toEqual([
        {
          path: "body.customers.999.customerGroupCodes",
          message: "unknown customer group codes: NOPE",
        },
      ]);
      expect((await api("GET", `/v1/api/customer/${codes[0]}`)).body.name).toBe("Customer 0");
      expect([...(await membershipsOf(codes)).values()].flat()).toHaveLength(149_000);
    },
    LARGE,
  );
});

describe("bulk writes whose facts or rows pass 2 MB", () => {
  it(
    "customer groups: 1000 stored with 3 KB descriptions, renamed in one call",
    async () => {
      // 1000 characters of 3 bytes each in UTF-8: ~3 MB of stored groups, read and written again.
      const description = "価".repeat(1000);
      const codes = Array.from({ length: 1000 }, () => uid("G"));
      for (let from = 0; from < 1000; from += 250) {
        const rows = codes
          .slice(from, from + 250)
          .map((code) => ({ code, name: "G", description }));
        const res = await api("PUT", "/v1/api/customer-group", { body: { customerGroups: rows } });
        expect(res.body.created).toHaveLength(250);
      }
      const renamed = await api("PUT", "/v1/api/customer-group", {
        body: { customerGroups: codes.map((code, i) => ({ code, name: `Group ${i}` })) },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ created: [], updated: codes, unchanged: 0 });
      const last = (await api("GET", `/v1/api/customer-group/${codes[999]}`)).body;
      expect(last).toMatchObject({ name: "Group 999", description });
    },
    LARGE,
  );

  it(
    "the largest price sheet: 1000 rows of 64-character codes and the largest numbers",
    async () => {
      const prefix = uid("P");
      const productCodes = Array.from({ length: 1000 }, (_, i) =>
        `${prefix}-${i}-`.padEnd(64, "Y"),
      );
      const products = await api("PUT", "/v1/api/product", {
        body: {
          products: productCodes.map((code) => ({ code, name: "N".repeat(200) })),
        },
      });
      expect(products.body.created).toHaveLength(1000);
      const pricelist = await createPricelist();
      const prices = productCodes.map((productCode, i) => ({
        productCode,
        minQuantity: Number.MAX_SAFE_INTEGER - i,
        amount: Number.MAX_SAFE_INTEGER,
      }));
      const res = await api("PUT", `/v1/api/pricelist/${pricelist.id}/prices`, {
        body: { prices },
      });
      expect(res.status).toBe(200);
      const row = await env.DB.prepare(
        "select count(*) as n, min(amount) as amount from pricelist_prices where pricelist_id = ?",
      )
        .bind(pricelist.id)
        .first<{ n: number; amount: number }>();
      expect(row).toEqual({ n: 1000, amount: Number.MAX_SAFE_INTEGER });
    },
    LARGE,
  );

  it(
    "the chunks of one write are one transaction: a failure in the last undoes the first",
    async () => {
      const db = createDb(env.DB, new DbMeter());
      const prefix = uid("C");
      // ~1.5 KB a row: 1000 rows make two chunks; the last row repeats the first one's code.
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        code: i === 999 ? `${prefix}-0` : `${prefix}-${i}`,
        name: "x".repeat(1500),
      }));
      const statements = insertRows(db, customers, rows);
      expect(statements.length).toBe(2);
      expect(jsonChunks(rows).every((json) => utf8Bytes(json) <= MAX_JSON_BYTES)).toBe(true);
      await expect(db.batch(statements as [never])).rejects.toThrow(/UNIQUE constraint failed/);
      const stored = await env.DB.prepare("select count(*) as n from customers where code like ?")
        .bind(`${prefix}-%`)
        .first<{ n: number }>();
      expect(stored!.n).toBe(0);
    },
    LARGE,
  );
});

describe("jsonChunks", () => {
  it("cuts by UTF-8 bytes, keeps order, and gives no chunk for no rows", () => {
    expect(jsonChunks([])).toEqual([]);
    const rows = ["é".repeat(10), "a".repeat(10), "€".repeat(10), "😀".repeat(5)];
    // Each row is 22-42 bytes of JSON; 50 bytes hold one, or two small ones.
    const chunks = jsonChunks(rows, 50);
    expect(chunks.flatMap((json) => JSON.parse(json) as string[])).toEqual(rows);
    for (const json of chunks) expect(utf8Bytes(json)).toBeLessThanOrEqual(50);
    expect(utf8Bytes("é€😀")).toBe(new TextEncoder().encode("é€😀").length);
  });
});
