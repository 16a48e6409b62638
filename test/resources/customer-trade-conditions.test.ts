import { beforeAll, describe, expect, it } from "vitest";
import { createTradeCondition, setTradeConditionStatus } from "../factories";
import { api, created, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";

/**
 * Seed endpoint 2: GET customer/{code}/trade-conditions. Storage is isolated per test file, so
 * the world below holds every GLOBAL condition of this file: no other test here creates one.
 */

type Condition = { id: number; [key: string]: unknown };

const TC = "/v1/api/trade-conditions";
const code = (prefix: string) => uid(prefix);

const assign = async (id: number, kind: "customer-groups" | "customers", codes: string[]) => {
  const field = kind === "customers" ? "customerCodes" : "customerGroupCodes";
  const res = await api("POST", `${TC}/${id}/${kind}`, { body: { [field]: codes } });
  expect(res.status).toBe(201);
};

/** The rowid of a link row, read straight from D1: the link id is built from it. */
async function rowid(table: string, targetColumn: string, conditionId: number, target: string) {
  const targetTable = {
    customer_id: "customers",
    customer_group_id: "customer_groups",
    channel_id: "channels",
  }[targetColumn]!;
  const { env } = await import("cloudflare:workers");
  const row = await env.DB.prepare(
    `select l.rowid as r from ${table} l join ${targetTable} t on t.id = l.${targetColumn}
     where l.trade_condition_id = ? and t.code = ?`,
  )
    .bind(conditionId, target)
    .first<{ r: number }>();
  return row!.r;
}

const path = (customer: string, query = "") =>
  `/v1/api/customer/${customer}/trade-conditions${query ? `?${query}` : ""}`;

interface World {
  customer: string;
  groups: [string, string];
  channel: string;
  direct: Condition;
  byGroups: Condition;
  byChannel: Condition;
  global: Condition;
  /** Every link of the customer, ids ascending. */
  links: {
    id: number;
    customerCode: string;
    via: { kind: string; code: string | null };
    tradeCondition: Condition;
  }[];
}

let w: World;

beforeAll(async () => {
  const [g1, g2, gOther] = [code("G"), code("G"), code("G")];
  for (const g of [g1, g2, gOther]) await created("/v1/api/customer-group", { code: g, name: g });
  const [ch, chOther] = [code("CH"), code("CH")];
  for (const c of [ch, chOther]) await created("/v1/api/channel", { code: c, name: c });
  const customer = code("C");
  await created("/v1/api/customer", {
    code: customer,
    name: "Muster GmbH",
    customerGroupCodes: [g2, g1],
    channelCodes: [ch],
  });
  const neighbour = code("C");
  await created("/v1/api/customer", {
    code: neighbour,
    name: "Neighbour",
    customerGroupCodes: [g1, gOther],
    channelCodes: [chOther],
  });

  // Reaches the customer directly (ACTIVE DISCOUNT).
  let direct = await createTradeCondition({ name: "Direct", scope: "CUSTOMER", status: "ACTIVE" });
  await assign(direct.id, "customers", [neighbour, customer]);
  // Reaches it through both of its groups (DRAFT SURCHARGE), plus a group it is not in.
  let byGroups = await createTradeCondition({
    name: "Groups",
    scope: "CUSTOMER_GROUP",
    type: "SURCHARGE",
    discountType: "ABSOLUTE",
    value: 250,
    currency: "EUR",
  });
  await assign(byGroups.id, "customer-groups", [g1, gOther, g2]);
  // Reaches it through its channel (ACTIVE NET_PRICE); the other channel is not the customer's.
  const byChannel = await createTradeCondition({
    name: "Channel",
    scope: "CHANNEL",
    type: "NET_PRICE",
    discountType: "ABSOLUTE",
    value: 9900,
    currency: "EUR",
    status: "ACTIVE",
    channelCodes: [chOther, ch],
  });
  // GLOBAL (INACTIVE DISCOUNT): its channel list (the customer's channel) narrows where it
  // applies; it is no CHANNEL link.
  let global = await createTradeCondition({ name: "Global", scope: "GLOBAL", channelCodes: [ch] });
  global = await setTradeConditionStatus(global.id, "ACTIVE", "INACTIVE");

  // None of these reach the customer.
  const onlyNeighbour = await createTradeCondition({ name: "Neighbour only", scope: "CUSTOMER" });
  await assign(onlyNeighbour.id, "customers", [neighbour]);
  const otherGroup = await createTradeCondition({ name: "Other group", scope: "CUSTOMER_GROUP" });
  await assign(otherGroup.id, "customer-groups", [gOther]);
  await createTradeCondition({ name: "Other channel", scope: "CHANNEL", channelCodes: [chOther] });

  direct = (await api("GET", `${TC}/${direct.id}`)).body;
  byGroups = (await api("GET", `${TC}/${byGroups.id}`)).body;

  const links = [
    {
      id: 4 * (await rowid("trade_condition_customers", "customer_id", direct.id, customer)),
      customerCode: customer,
      via: { kind: "CUSTOMER", code: customer },
      tradeCondition: direct,
    },
    {
      id:
        4 * (await rowid("trade_condition_customer_groups", "customer_group_id", byGroups.id, g1)) +
        1,
      customerCode: customer,
      via: { kind: "CUSTOMER_GROUP", code: g1 },
      tradeCondition: byGroups,
    },
    {
      id:
        4 * (await rowid("trade_condition_customer_groups", "customer_group_id", byGroups.id, g2)) +
        1,
      customerCode: customer,
      via: { kind: "CUSTOMER_GROUP", code: g2 },
      tradeCondition: byGroups,
    },
    {
      id: 4 * (await rowid("trade_condition_channels", "channel_id", byChannel.id, ch)) + 2,
      customerCode: customer,
      via: { kind: "CHANNEL", code: ch },
      tradeCondition: byChannel,
    },
    {
      id: 4 * global.id + 3,
      customerCode: customer,
      via: { kind: "GLOBAL", code: null },
      tradeCondition: global,
    },
  ].sort((a, b) => a.id - b.id);
  w = { customer, groups: [g1, g2], channel: ch, direct, byGroups, byChannel, global, links };
});

const ids = async (query: string) => {
  const res = await api("GET", path(w.customer, query), { key: KEYS.read });
  expect(res.status).toBe(200);
  return res.body.data.map((link: { id: number }) => link.id);
};
const idsOf = (pred: (link: World["links"][number]) => boolean) =>
  w.links.filter(pred).map((link) => link.id);

describe("customer trade conditions (seed endpoint 2)", () => {
  it("lists every link of all four kinds with exact ids and vias, in one round trip", async () => {
    const res = await api("GET", path(w.customer), { key: KEYS.read });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    expect(res.body.data).toEqual([...w.links].reverse());
    expect(res.body.meta).toEqual({
      itemsPerPage: 20,
      totalItems: 5,
      currentPage: 1,
      totalPages: 1,
      sortBy: [["id", "DESC"]],
    });
    expect(res.body.links).toEqual({
      current: `http://pricing.test${path(w.customer)}?page=1&limit=20&sortBy=id:DESC`,
    });
    // The ids are distinct and the link kinds are all there.
    expect(new Set(res.body.data.map((l: { id: number }) => l.id)).size).toBe(5);
    expect(res.body.data.map((l: { via: { kind: string } }) => l.via.kind).sort()).toEqual([
      "CHANNEL",
      "CUSTOMER",
      "CUSTOMER_GROUP",
      "CUSTOMER_GROUP",
      "GLOBAL",
    ]);
  });

  it("sorts by id ASC and DESC", async () => {
    const asc = w.links.map((l) => l.id);
    expect(await ids("sortBy=id:ASC")).toEqual(asc);
    expect(await ids("sortBy=id:desc")).toEqual([...asc].reverse());
    const res = await api("GET", path(w.customer, "sortBy=id:asc"));
    expect(res.body.meta.sortBy).toEqual([["id", "ASC"]]);
  });

  it("filters scope with $eq and $not:$eq, and status with $eq, on the trade condition", async () => {
    expect(await ids("sortBy=id:ASC&filter.scope=$eq:CUSTOMER_GROUP")).toEqual(
      idsOf((l) => l.via.kind === "CUSTOMER_GROUP"),
    );
    expect(await ids("sortBy=id:ASC&filter.scope=GLOBAL")).toEqual([4 * w.global.id + 3]);
    expect(await ids("sortBy=id:ASC&filter.scope=$not:$eq:CUSTOMER_GROUP")).toEqual(
      idsOf((l) => l.via.kind !== "CUSTOMER_GROUP"),
    );
    expect(await ids("sortBy=id:ASC&filter.scope=$not:GLOBAL")).toEqual(
      idsOf((l) => l.via.kind !== "GLOBAL"),
    );
    expect(
      await ids("sortBy=id:ASC&filter.scope=$not:GLOBAL&filter.scope=$not:CUSTOMER_GROUP"),
    ).toEqual(idsOf((l) => l.via.kind === "CUSTOMER" || l.via.kind === "CHANNEL"));
    expect(await ids("sortBy=id:ASC&filter.status=$eq:ACTIVE")).toEqual(
      idsOf((l) => l.tradeCondition.status === "ACTIVE"),
    );
    expect(await ids("filter.status=DRAFT")).toHaveLength(2);
    expect(await ids("filter.status=INACTIVE")).toEqual([4 * w.global.id + 3]);
    expect(await ids("filter.status=ARCHIVED")).toEqual([]);
    expect(await ids("filter.status=ACTIVE&filter.scope=CHANNEL")).toEqual(
      idsOf((l) => l.via.kind === "CHANNEL"),
    );

    const res = await api("GET", path(w.customer, "filter.scope=$not:GLOBAL&filter.status=DRAFT"));
    expect(res.body.meta.filter).toEqual({ scope: "$not:GLOBAL", status: "DRAFT" });
    expect(res.body.meta.totalItems).toBe(2);
    expect(res.body.links.current).toBe(
      `http://pricing.test${path(w.customer)}?page=1&limit=20&sortBy=id:DESC&filter.scope=$not:GLOBAL&filter.status=DRAFT`,
    );
  });

  it("searches tradeCondition.type, case-insensitively, as a substring", async () => {
    expect(await ids("sortBy=id:ASC&search=net_")).toEqual(idsOf((l) => l.via.kind === "CHANNEL"));
    expect(await ids("sortBy=id:ASC&search=DISCOUNT&searchBy=tradeCondition.type")).toEqual(
      idsOf((l) => l.tradeCondition.type === "DISCOUNT"),
    );
    expect(await ids("search=charge")).toHaveLength(2);
    // Names are not searched.
    expect(await ids("search=Muster")).toEqual([]);
    expect(await ids("search=Groups")).toEqual([]);
    const res = await api("GET", path(w.customer, "search=surcharge"));
    expect(res.body.meta).toMatchObject({
      totalItems: 2,
      search: "surcharge",
      searchBy: ["tradeCondition.type"],
    });
  });

  it("pages with meta and links", async () => {
    const asc = w.links.map((l) => l.id);
    const res = await api("GET", path(w.customer, "limit=2&page=2&sortBy=id:ASC"));
    expect(res.body.data.map((l: { id: number }) => l.id)).toEqual(asc.slice(2, 4));
    expect(res.body.meta).toEqual({
      itemsPerPage: 2,
      totalItems: 5,
      currentPage: 2,
      totalPages: 3,
      sortBy: [["id", "ASC"]],
    });
    const base = `http://pricing.test${path(w.customer)}`;
    expect(res.body.links).toEqual({
      first: `${base}?page=1&limit=2&sortBy=id:ASC`,
      previous: `${base}?page=1&limit=2&sortBy=id:ASC`,
      current: `${base}?page=2&limit=2&sortBy=id:ASC`,
      next: `${base}?page=3&limit=2&sortBy=id:ASC`,
      last: `${base}?page=3&limit=2&sortBy=id:ASC`,
    });
    const past = await api("GET", path(w.customer, "limit=2&page=9"));
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ currentPage: 9, totalPages: 3, totalItems: 5 });
  });

  it("follows changes of groups and targets (the state read back)", async () => {
    // A fresh customer in one of the world's groups gets the group link and the global one.
    const fresh = code("C");
    await created("/v1/api/customer", {
      code: fresh,
      name: "Fresh",
      customerGroupCodes: [w.groups[1]],
    });
    const res = await api("GET", path(fresh, "sortBy=id:ASC"));
    expect(res.body.data).toEqual([
      {
        ...w.links.find((l) => l.via.code === w.groups[1])!,
        customerCode: fresh,
      },
      { ...w.links.find((l) => l.via.kind === "GLOBAL")!, customerCode: fresh },
    ]);

    // A direct target appears, and disappears again on unassign.
    const own = await createTradeCondition({ name: "Own", scope: "CUSTOMER", type: "SURCHARGE" });
    await assign(own.id, "customers", [fresh]);
    const withOwn = await api("GET", path(fresh, "filter.scope=CUSTOMER"));
    expect(withOwn.body.data).toEqual([
      {
        id: 4 * (await rowid("trade_condition_customers", "customer_id", own.id, fresh)),
        customerCode: fresh,
        via: { kind: "CUSTOMER", code: fresh },
        tradeCondition: { ...own, customerCodes: [fresh] },
      },
    ]);
    await api("POST", `${TC}/${own.id}/customers/unassign`, { body: { customerCodes: [fresh] } });
    expect((await api("GET", path(fresh, "filter.scope=CUSTOMER"))).body.data).toEqual([]);
  });

  it("answers 404 for an unknown customer, in one round trip", async () => {
    const res = await api("GET", path("NOPE-CUSTOMER"), { key: KEYS.read });
    expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe("customer NOPE-CUSTOMER not found");
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
  });

  it("refuses bad queries and bad codes (400 naming the parameter)", async () => {
    const bad = async (query: string) => issuePaths(await api("GET", path(w.customer, query)));
    expect(await bad("sortBy=name:ASC")).toEqual(["query.sortBy"]);
    expect(await bad("sortBy=id:UP")).toEqual(["query.sortBy"]);
    expect(await bad("searchBy=name")).toEqual(["query.searchBy"]);
    expect(await bad("search=" + "x".repeat(101))).toEqual(["query.search"]);
    expect(await bad("filter.type=DISCOUNT")).toEqual(["query.filter.type"]);
    expect(await bad("filter.status=$not:ACTIVE")).toEqual(["query.filter.status"]);
    expect(await bad("filter.scope=EVERYONE")).toEqual(["query.filter.scope"]);
    expect(await bad("filter.scope=$gt:GLOBAL")).toEqual(["query.filter.scope"]);
    expect(await bad("select=id")).toEqual(["query.select"]);
    const badCode = await api("GET", "/v1/api/customer/bad%20code/trade-conditions");
    expect(issuePaths(badCode)).toEqual(["path.code"]);
  });

  it("needs a key (401); a read key is enough", async () => {
    expectProblem(await api("GET", path(w.customer), { key: null }), 401, "UNAUTHORIZED");
    expect((await api("GET", path(w.customer), { key: KEYS.read })).status).toBe(200);
    expectProblem(await api("POST", path(w.customer), { body: {} }), 405, "METHOD_NOT_ALLOWED");
  });
});
