import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, created, uid } from "../shared/helpers";

/**
 * The link ids of seed endpoint 2 (GET /v1/api/customer/{code}/trade-conditions) are built from
 * the link tables' ids: INTEGER PRIMARY KEYs since migration 0006, which VACUUM cannot renumber
 * (it may renumber the implicit rowid of a table keyed by a composite PRIMARY KEY).
 * This file rebuilds link tables by hand, so it keeps them to itself (storage is per file).
 */

const LINK_TABLES = [
  "trade_condition_customers",
  "trade_condition_customer_groups",
  "trade_condition_channels",
] as const;

const TC = "/v1/api/trade-conditions";

const condition = (scope: string, body: Record<string, unknown> = {}) =>
  created<{ id: number }>(TC, {
    name: "Condition",
    scope,
    type: "DISCOUNT",
    discountType: "PERCENTAGE",
    value: 500,
    status: "ACTIVE",
    ...body,
  });

/** A customer reached by one condition of each linked kind: direct, through a group, a channel. */
async function world() {
  const group = await created<{ code: string }>("/v1/api/customer-group", {
    code: uid("G"),
    name: "Group",
  });
  const channel = await created<{ code: string }>("/v1/api/channel", {
    code: uid("CH"),
    name: "Channel",
  });
  const customer = await created<{ code: string; id: number }>("/v1/api/customer", {
    code: uid("C"),
    name: "Customer",
    customerGroupCodes: [group.code],
    channelCodes: [channel.code],
  });
  const direct = await condition("CUSTOMER");
  const viaGroup = await condition("CUSTOMER_GROUP");
  const viaChannel = await condition("CHANNEL", { channelCodes: [channel.code] });
  await api("POST", `${TC}/${direct.id}/customers`, { body: { customerCodes: [customer.code] } });
  await api("POST", `${TC}/${viaGroup.id}/customer-groups`, {
    body: { customerGroupCodes: [group.code] },
  });
  return { customer, group, channel, conditions: [direct, viaGroup, viaChannel] };
}

/** The customer's links as a client reads them: id, kind and condition. */
async function linksOf(customerCode: string) {
  const res = await api(
    "GET",
    `/v1/api/customer/${customerCode}/trade-conditions?sortBy=id:ASC&limit=100`,
  );
  expect(res.status).toBe(200);
  return (res.body.data as any[]).map((l) => [l.id, l.via.kind, l.tradeCondition.id]);
}

/**
 * One link row of each table written before the customer's, and a way to delete them again
 * afterwards: the customer's rows then sit behind gaps, which a VACUUM of a table without an
 * INTEGER PRIMARY KEY may close by renumbering them.
 */
const otherChannel = () =>
  created<{ code: string }>("/v1/api/channel", { code: uid("CH"), name: "Other" });

async function linksBefore() {
  const other = await created<{ code: string }>("/v1/api/customer", {
    code: uid("C"),
    name: "Other",
  });
  const group = await created<{ code: string }>("/v1/api/customer-group", {
    code: uid("G"),
    name: "Other",
  });
  const [channel, later] = [await otherChannel(), await otherChannel()];
  const toCustomer = await condition("CUSTOMER");
  await api("POST", `${TC}/${toCustomer.id}/customers`, { body: { customerCodes: [other.code] } });
  const toGroup = await condition("CUSTOMER_GROUP");
  const groups = { customerGroupCodes: [group.code] };
  await api("POST", `${TC}/${toGroup.id}/customer-groups`, { body: groups });
  const inChannel = await condition("CHANNEL", { channelCodes: [channel.code] });
  return async function remove() {
    for (const res of [
      await api("DELETE", `/v1/api/customer/${other.code}`),
      await api("POST", `${TC}/${toGroup.id}/customer-groups/unassign`, { body: groups }),
      await api("PATCH", `${TC}/${inChannel.id}`, { body: { channelCodes: [later.code] } }),
    ]) {
      expect(res.status).toBeLessThan(300);
    }
  };
}

describe("link ids (seed endpoint 2)", () => {
  it("are declared INTEGER PRIMARY KEYs, the pair kept unique by an index", async () => {
    for (const table of LINK_TABLES) {
      const { results: columns } = await env.DB.prepare(
        `select name, type, pk from pragma_table_info('${table}') where pk > 0`,
      ).all<{ name: string; type: string; pk: number }>();
      expect(columns, table).toEqual([{ name: "id", type: "INTEGER", pk: 1 }]);
      const unique = await env.DB.prepare(
        `select 1 as ok from pragma_index_list('${table}') where name = '${table}_unique' and "unique" = 1`,
      ).first();
      expect(unique, table).not.toBeNull();
      expect(await schemaOf(table), table).toEqual(expectedSchema(table));
    }
  });

  it("stay the same for the client when other rows come and go and the tables are vacuumed", async () => {
    const removeOthers = await linksBefore();
    const { customer } = await world();
    await removeOthers();
    const before = await linksOf(customer.code);
    expect(before.map(([, kind]) => kind).sort()).toEqual([
      "CHANNEL",
      "CUSTOMER",
      "CUSTOMER_GROUP",
    ]);
    for (const table of LINK_TABLES) await copyLikeVacuum(table);
    expect(await linksOf(customer.code)).toEqual(before);
  });
});

/**
 * What VACUUM does to a table: it copies the rows by their declared columns into a fresh table,
 * so a rowid that is no declared column comes out renumbered (the gaps closed). D1 refuses
 * VACUUM ("cannot VACUUM from within a transaction"), so the test makes the same copy.
 */
async function copyLikeVacuum(table: string) {
  await env.DB.batch(
    [
      `CREATE TABLE vacuum_copy AS SELECT * FROM ${table} ORDER BY rowid`,
      `DELETE FROM ${table}`,
      `INSERT INTO ${table} SELECT * FROM vacuum_copy`,
      "DROP TABLE vacuum_copy",
    ].map((q) => env.DB.prepare(q)),
  );
}

const migration = (name: string) => {
  const found = env.TEST_MIGRATIONS.find((m) => m.name.startsWith(name));
  if (!found) throw new Error(`no migration ${name}`);
  return found.queries;
};

const PAIRS = {
  trade_condition_customers: ["customer_id", "customers", "cascade"],
  trade_condition_customer_groups: ["customer_group_id", "customer_groups", "cascade"],
  trade_condition_channels: ["channel_id", "channels", "restrict"],
} as const;

/** The link tables as migration 0000 made them, with rows at chosen rowids (gaps included). */
async function rebuildAsBefore(rows: Record<(typeof LINK_TABLES)[number], number[][]>) {
  const creates = migration("0000").filter((q) =>
    LINK_TABLES.some((t) => q.includes(`CREATE TABLE \`${t}\``) || q.includes(`ON \`${t}\``)),
  );
  expect(creates).toHaveLength(LINK_TABLES.length * 2);
  const inserts = LINK_TABLES.flatMap((t) =>
    rows[t].map(
      (r) =>
        `INSERT INTO ${t} (rowid, trade_condition_id, ${PAIRS[t][0]}) VALUES (${r.join(", ")})`,
    ),
  );
  const statements = [...LINK_TABLES.map((t) => `DROP TABLE ${t}`), ...creates, ...inserts];
  await env.DB.batch(statements.map((q) => env.DB.prepare(q)));
}

const all = async <T>(query: string) => (await env.DB.prepare(query).all<T>()).results;

/** A link table's foreign keys, its own indexes and its triggers. */
const schemaOf = async (table: string) => ({
  foreignKeys: await all(
    `select "table", "from", on_delete as onDelete from pragma_foreign_key_list('${table}') order by "table"`,
  ),
  indexes: await all(
    `select name, "unique" from pragma_index_list('${table}') where origin = 'c' order by name`,
  ),
  triggers: (
    await all<{ name: string }>(
      `select name from sqlite_master where type = 'trigger' and tbl_name = '${table}' order by name`,
    )
  ).map((t) => t.name),
});

const expectedSchema = (table: (typeof LINK_TABLES)[number]) => {
  const [column, target, onDelete] = PAIRS[table];
  const index = { customer_id: "customer", customer_group_id: "group", channel_id: "channel" };
  return {
    foreignKeys: [
      { table: target, from: column, onDelete: onDelete.toUpperCase() },
      { table: "trade_conditions", from: "trade_condition_id", onDelete: "CASCADE" },
    ].sort((a, b) => a.table.localeCompare(b.table)),
    indexes: [
      { name: `${table}_${index[column]}_idx`, unique: 0 },
      { name: `${table}_unique`, unique: 1 },
    ],
    triggers: ["audit", "pricing_version"].flatMap((kind) =>
      ["delete", "insert", "update"].map((action) => `${kind}_${table}_${action}`),
    ),
  };
};

const idOf = async (table: string, code: string) =>
  (await env.DB.prepare(`select id from ${table} where code = ?`)
    .bind(code)
    .first<{ id: number }>())!.id;

describe("migration 0006 (link ids)", () => {
  it("keeps every link row, its rowid as the id, the foreign keys, indexes and triggers", async () => {
    const { customer, group, channel, conditions } = await world();
    const [direct, viaGroup, viaChannel] = conditions.map((c) => c.id);
    await rebuildAsBefore({
      trade_condition_customers: [[41, direct!, customer.id]],
      trade_condition_customer_groups: [[7, viaGroup!, await idOf("customer_groups", group.code)]],
      trade_condition_channels: [[1003, viaChannel!, await idOf("channels", channel.code)]],
    });

    await env.DB.batch([...migration("0006"), ...migration("0007")].map((q) => env.DB.prepare(q)));

    // The ids the client held before: 4 × rowid + k.
    expect((await linksOf(customer.code)).sort((a, b) => a[0] - b[0])).toEqual([
      [4 * 7 + 1, "CUSTOMER_GROUP", viaGroup],
      [4 * 41, "CUSTOMER", direct],
      [4 * 1003 + 2, "CHANNEL", viaChannel],
    ]);
    for (const table of LINK_TABLES) {
      expect(await schemaOf(table), table).toEqual(expectedSchema(table));
    }
    // A new link takes a fresh id after the copied ones.
    const newcomer = await created<{ code: string }>("/v1/api/customer", {
      code: uid("C"),
      name: "New",
    });
    await api("POST", `${TC}/${direct}/customers`, { body: { customerCodes: [newcomer.code] } });
    expect((await linksOf(newcomer.code)).map(([id]) => id)).toEqual([4 * 42]);
  });
});
