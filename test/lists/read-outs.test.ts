import { describe, expect, it } from "vitest";
import { SEES_ALL } from "../../src/db/visibility";
import { channelPricelistList } from "../../src/resources/channels/channels.list";
import {
  listChannelCustomerGroups,
  listChannelCustomers,
  listChannelPricelists,
} from "../../src/resources/channels/channels.repo";
import { customerGroupList } from "../../src/resources/customer-groups/customer-groups.list";
import {
  listGroupCustomers,
  listGroupPricelists,
} from "../../src/resources/customer-groups/customer-groups.repo";
import { customerList } from "../../src/resources/customers/customers.list";
import { listCustomers } from "../../src/resources/customers/customers.repo";
import { pricelistsList } from "../../src/resources/pricelists/pricelists.list";
import {
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  setPrimaryPricelist,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, roundTrips, uid } from "../shared/helpers";
import { listRequest, queryPlans } from "../shared/plans";
import { getCustomer, getPricelist } from "../shared/reads";

/** A read with the read key, which every read-out accepts. */
const read = (path: string) => api("GET", path, { key: KEYS.read });

const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((item) => item.id);
const codes = (res: { body: { data: { code: string }[] } }) =>
  res.body.data.map((item) => item.code);

/** A customer as lists show it: GET customer without the detail's pricelists. */
async function customerItem(code: string) {
  const { pricelists: _, primaryPricelist: __, ...item } = await getCustomer(code);
  return item;
}

const getGroup = async (code: string) => (await api("GET", `/v1/api/customer-group/${code}`)).body;

const assign = async (path: string, body: unknown) => {
  const res = await api("POST", path, { body });
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
};

/** One page's envelope as every list answers it (docs/list-queries.md §9), default sort. */
const firstPage = (path: string, totalItems: number) => ({
  meta: {
    itemsPerPage: 20,
    totalItems,
    currentPage: 1,
    totalPages: totalItems ? 1 : 0,
    sortBy: [["id", "DESC"]],
  },
  links: { current: `http://pricing.test${path}?page=1&limit=20&sortBy=id:DESC` },
});

describe("GET /v1/api/channel/{code}/pricelists", () => {
  it("lists what was assigned, each pricelist as GET shows it plus isPrimary", async () => {
    const [ch, other] = [await createChannel(), await createChannel()];
    const primary = await createPricelist();
    const assigned = await createPricelist();
    const floor = await createPricelist({ kind: "FLOOR" });
    const elsewhere = await createPricelist();
    await assignPricelistToChannel(ch.code, assigned.id);
    await assignPricelistToChannel(ch.code, floor.id);
    await setPrimaryPricelist(ch.code, primary.id);
    await setPrimaryPricelist(other.code, elsewhere.id);

    const path = `/v1/api/channel/${ch.code}/pricelists`;
    const res = await read(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { ...(await getPricelist(floor.id)), isPrimary: false },
        { ...(await getPricelist(assigned.id)), isPrimary: false },
        { ...(await getPricelist(primary.id)), isPrimary: true },
      ],
      ...firstPage(path, 3),
    });
    expect(roundTrips(res)).toBe(1);

    // Moving the mark shows at once; clearing it leaves the pricelists assigned.
    await setPrimaryPricelist(ch.code, assigned.id);
    expect(ids(await read(`${path}?filter.isPrimary=true`))).toEqual([assigned.id]);
    expect((await api("DELETE", `/v1/api/channel/${ch.code}/pricelist/primary`)).status).toBe(204);
    const cleared = await read(path);
    expect(cleared.body.data.map((p: { isPrimary: boolean }) => p.isPrimary)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("searches by name, filters by status, kind and isPrimary, sorts by name", async () => {
    const ch = await createChannel();
    const tag = uid("CPL");
    const b = await createPricelist({ name: `${tag} Bravo` });
    const a = await createPricelist({ name: `${tag} alpha`, status: "ACTIVE" });
    const f = await createPricelist({ name: "Floor", kind: "FLOOR" });
    for (const pl of [a, b, f]) await assignPricelistToChannel(ch.code, pl.id);
    const path = `/v1/api/channel/${ch.code}/pricelists`;
    expect(ids(await read(`${path}?search=${tag}&sortBy=name:ASC`))).toEqual([a.id, b.id]);
    expect(ids(await read(`${path}?filter.status=ACTIVE`))).toEqual([a.id]);
    expect(ids(await read(`${path}?filter.kind=FLOOR`))).toEqual([f.id]);
    expect(ids(await read(`${path}?filter.isPrimary=false&sortBy=id:ASC`))).toEqual([
      b.id,
      a.id,
      f.id,
    ]);
    expect(issuePaths(await read(`${path}?filter.isPrimary=maybe&sortBy=code:ASC`))).toEqual([
      "query.sortBy",
      "query.filter.isPrimary",
    ]);
  });

  it("answers 404 for an unknown channel, and an empty page for one without pricelists", async () => {
    const res = await read("/v1/api/channel/NOPE-CH/pricelists");
    expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe("channel NOPE-CH not found");
    const ch = await createChannel();
    const path = `/v1/api/channel/${ch.code}/pricelists`;
    expect((await read(path)).body).toEqual({ data: [], ...firstPage(path, 0) });
    expectProblem(await api("GET", path, { key: null }), 401, "UNAUTHORIZED");
  });
});

describe("GET /v1/api/channel/{code}/customers and …/customer-groups", () => {
  it("lists the channel's own customers as customer lists show them", async () => {
    const [ch, other] = [await createChannel(), await createChannel()];
    const group = await createCustomerGroup();
    const a = await createCustomer({ channelCodes: [ch.code, other.code] });
    const b = await createCustomer({ customerGroupCodes: [group.code] });
    await createCustomer({ channelCodes: [other.code] });
    await assign(`/v1/api/channel/${ch.code}/customer`, { customerCodes: [b.code] });

    const path = `/v1/api/channel/${ch.code}/customers`;
    const res = await read(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [await customerItem(b.code), await customerItem(a.code)],
      ...firstPage(path, 2),
    });
    expect(roundTrips(res)).toBe(1);
    expect(codes(await read(`${path}?search=${a.code.toLowerCase()}`))).toEqual([a.code]);

    await api("POST", `/v1/api/channel/${ch.code}/customer/unassign`, {
      body: { customerCodes: [a.code] },
    });
    expect(codes(await read(path))).toEqual([b.code]);
  });

  it("lists the channel's customer groups as GET customer-group shows them", async () => {
    const ch = await createChannel();
    const tag = uid("CG");
    const g1 = await createCustomerGroup({ code: `${tag}-1`, name: "Wholesale" });
    const g2 = await createCustomerGroup({ code: `${tag}-2`, name: "retail" });
    await createCustomerGroup({ code: `${tag}-3` });
    await assign(`/v1/api/channel/${ch.code}/customer-group`, {
      customerGroupCodes: [g1.code, g2.code],
    });
    const path = `/v1/api/channel/${ch.code}/customer-groups`;
    const res = await read(path);
    expect(res.body).toEqual({
      data: [await getGroup(g2.code), await getGroup(g1.code)],
      ...firstPage(path, 2),
    });
    expect(roundTrips(res)).toBe(1);
    expect(codes(await read(`${path}?sortBy=name:ASC`))).toEqual([g2.code, g1.code]);
    expect(codes(await read(`${path}?search=WHOLE`))).toEqual([g1.code]);
  });

  it("answers 404 naming an unknown channel", async () => {
    for (const tail of ["customers", "customer-groups"]) {
      const res = await read(`/v1/api/channel/NOPE-CH/${tail}`);
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe("channel NOPE-CH not found");
    }
    expect(issuePaths(await read("/v1/api/channel/bad%20code/customers"))).toEqual(["path.code"]);
  });
});

describe("GET /v1/api/customer-group/{code}/customers and …/pricelists", () => {
  it("lists the group's members, paged, as customer lists show them", async () => {
    const group = await createCustomerGroup();
    const members = [];
    for (let i = 0; i < 3; i++) {
      members.push(await createCustomer({ customerGroupCodes: [group.code] }));
    }
    await createCustomer(); // not a member
    const path = `/v1/api/customer-group/${group.code}/customers`;
    const res = await read(`${path}?limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      await customerItem(members[2].code),
      await customerItem(members[1].code),
    ]);
    expect(res.body.meta).toMatchObject({ totalItems: 3, totalPages: 2, itemsPerPage: 2 });
    expect(roundTrips(res)).toBe(1);
    const page2 = await read(`${path}?limit=2&page=2`);
    expect(codes(page2)).toEqual([members[0].code]);

    await api("POST", `/v1/api/customer-group/${group.code}/customer/unassign`, {
      body: { customerCodes: [members[1].code] },
    });
    expect(codes(await read(path))).toEqual([members[2].code, members[0].code]);
  });

  it("lists the group's pricelists as GET pricelist shows them", async () => {
    const group = await createCustomerGroup();
    const [p1, p2] = [await createPricelist(), await createPricelist({ status: "ACTIVE" })];
    await createPricelist(); // not assigned
    for (const pl of [p1, p2]) {
      await assign(`/v1/api/customer-group/${group.code}/pricelist`, { pricelistId: pl.id });
    }
    const path = `/v1/api/customer-group/${group.code}/pricelists`;
    const res = await read(path);
    expect(res.body).toEqual({
      data: [await getPricelist(p2.id), await getPricelist(p1.id)],
      ...firstPage(path, 2),
    });
    expect(roundTrips(res)).toBe(1);
    expect(ids(await read(`${path}?filter.status=DRAFT`))).toEqual([p1.id]);
    expect(ids(await read(`${path}?search=${encodeURIComponent(p1.name)}`))).toEqual([p1.id]);
  });

  it("answers 404 naming an unknown group", async () => {
    for (const tail of ["customers", "pricelists"]) {
      const res = await read(`/v1/api/customer-group/NOPE-G/${tail}`);
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe("customer group NOPE-G not found");
    }
  });
});

describe("GET /v1/api/customer: filter.customerGroupCode and filter.channelCode", () => {
  it("finds the members of a group, of a channel, and of both", async () => {
    const [g, ch] = [await createCustomerGroup(), await createChannel()];
    const both = await createCustomer({ customerGroupCodes: [g.code], channelCodes: [ch.code] });
    const inGroup = await createCustomer({ customerGroupCodes: [g.code] });
    const inChannel = await createCustomer({ channelCodes: [ch.code] });
    await createCustomer();

    const byGroup = await read(`/v1/api/customer?filter.customerGroupCode=${g.code}`);
    expect(byGroup.status).toBe(200);
    expect(byGroup.body.data).toEqual([
      await customerItem(inGroup.code),
      await customerItem(both.code),
    ]);
    expect(byGroup.body.meta).toMatchObject({
      totalItems: 2,
      filter: { customerGroupCode: g.code },
    });
    expect(codes(await read(`/v1/api/customer?filter.channelCode=$eq:${ch.code}`))).toEqual([
      inChannel.code,
      both.code,
    ]);
    const anded = await read(
      `/v1/api/customer?filter.customerGroupCode=${g.code}&filter.channelCode=${ch.code}`,
    );
    expect(codes(anded)).toEqual([both.code]);
    expect(roundTrips(anded)).toBe(1);
    // An unknown code matches nothing, like any other filter value.
    expect((await read("/v1/api/customer?filter.channelCode=NOPE")).body.meta.totalItems).toBe(0);
  });

  it("allows $eq only, and says so", async () => {
    const res = await read(
      "/v1/api/customer?filter.customerGroupCode=$in:A,B&filter.channelCode=$not:X",
    );
    const body = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([
      { path: "query.filter.customerGroupCode", message: "$in is not allowed; allowed: $eq" },
      { path: "query.filter.channelCode", message: "$not is not allowed; allowed: $eq" },
    ]);
  });
});

describe("GET /v1/api/pricelist: search by name", () => {
  it("matches a case-insensitive substring of the name", async () => {
    const tag = uid("PLS");
    const a = await createPricelist({ name: `Dealer ${tag} north` });
    const b = await createPricelist({ name: `dealer ${tag.toLowerCase()} south` });
    await createPricelist({ name: "Unrelated" });
    const res = await read(`/v1/api/pricelist?search=${tag}&sortBy=name:ASC`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([a.id, b.id]);
    expect(res.body.meta).toMatchObject({ totalItems: 2, search: tag, searchBy: ["name"] });
    expect(ids(await read(`/v1/api/pricelist?search=${tag}%20south&searchBy=name`))).toEqual([
      b.id,
    ]);
    expect(issuePaths(await read("/v1/api/pricelist?search=x&searchBy=currency"))).toEqual([
      "query.searchBy",
    ]);
  });
});

describe("query plans of the read-outs and customer filters (EXPLAIN QUERY PLAN on D1)", () => {
  /** Entering a link table by its owner's key: the code's unique index, then the link's key. */
  const BY_CHANNEL = [
    "SEARCH channels USING COVERING INDEX channels_code_unique (code=?)",
    "SEARCH channel_customers USING COVERING INDEX sqlite_autoindex_channel_customers_1 (channel_id=?)",
  ];
  const BY_GROUP = [
    "SEARCH customer_groups USING COVERING INDEX customer_groups_code_unique (code=?)",
    "SEARCH customer_group_members USING COVERING INDEX sqlite_autoindex_customer_group_members_1 (customer_group_id=?)",
  ];
  const CHANNEL = ["SEARCH channels USING COVERING INDEX channels_code_unique (code=?)"];
  const GROUP = [
    "SEARCH customer_groups USING COVERING INDEX customer_groups_code_unique (code=?)",
  ];
  /** Every customer row carries its group and channel codes, each by the link's customer index. */
  const MEMBERSHIPS = [
    "SEARCH l USING INDEX customer_group_members_customer_idx (customer_id=?)",
    "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)",
    "SEARCH l USING INDEX channel_customers_customer_idx (customer_id=?)",
    "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)",
  ];
  /** A plan's access lines: the SEARCH and SCAN steps, without the subquery headings. */
  const steps = (plans: string[][]) =>
    plans.map((plan) => plan.filter((line) => /^(SEARCH|SCAN|USE TEMP)/.test(line)));
  const customers = (query: string) =>
    queryPlans((db) => listCustomers(db, listRequest(customerList.config, query)));
  const BY_ID = "SEARCH customers USING INTEGER PRIMARY KEY (rowid=?)";

  it("filter.customerGroupCode and filter.channelCode: by key from the code, in id order", async () => {
    expect(steps(await customers("filter.customerGroupCode=G-1"))).toEqual([
      [BY_ID, ...BY_GROUP, ...MEMBERSHIPS],
      [BY_ID, ...BY_GROUP],
    ]);
    expect(steps(await customers("filter.channelCode=CH-1&page=50"))).toEqual([
      [BY_ID, ...BY_CHANNEL, ...MEMBERSHIPS],
      [BY_ID, ...BY_CHANNEL],
    ]);
  });

  it("a channel's and a group's customers: the same way, after the existence check", async () => {
    const list = listRequest(customerList.config, "");
    expect(steps(await queryPlans((db) => listChannelCustomers(db, "CH-1", list)))).toEqual([
      CHANNEL,
      [BY_ID, ...BY_CHANNEL, ...MEMBERSHIPS],
      [BY_ID, ...BY_CHANNEL],
    ]);
    expect(steps(await queryPlans((db) => listGroupCustomers(db, "G-1", list)))).toEqual([
      GROUP,
      [BY_ID, ...BY_GROUP, ...MEMBERSHIPS],
      [BY_ID, ...BY_GROUP],
    ]);
  });

  it("a channel's groups and pricelists, a group's pricelists: by the link's key", async () => {
    const groups = listRequest(customerGroupList.config, "");
    const channelGroups = [
      "SEARCH customer_groups USING INTEGER PRIMARY KEY (rowid=?)",
      ...CHANNEL,
      "SEARCH channel_customer_groups USING COVERING INDEX sqlite_autoindex_channel_customer_groups_1 (channel_id=?)",
    ];
    expect(steps(await queryPlans((db) => listChannelCustomerGroups(db, "CH-1", groups)))).toEqual([
      CHANNEL,
      channelGroups,
      channelGroups,
    ]);
    const pricelists = listRequest(channelPricelistList.config, "");
    const [, rows, total] = steps(
      await queryPlans((db) => listChannelPricelists(db, "CH-1", pricelists, SEES_ALL)),
    );
    expect(rows![0]).toBe(
      "SEARCH channel_pricelists USING INDEX sqlite_autoindex_channel_pricelists_1 (channel_id=?)",
    );
    expect(total![0]).toBe(
      "SEARCH channel_pricelists USING COVERING INDEX sqlite_autoindex_channel_pricelists_1 (channel_id=?)",
    );
    const list = listRequest(pricelistsList.config, "");
    const [, groupRows] = steps(await queryPlans((db) => listGroupPricelists(db, "G-1", list)));
    expect(groupRows).toEqual([
      "SEARCH pricelists USING INTEGER PRIMARY KEY (rowid=?)",
      ...GROUP,
      "SEARCH customer_group_pricelists USING COVERING INDEX sqlite_autoindex_customer_group_pricelists_1 (customer_group_id=?)",
      "SEARCH customers USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN",
    ]);
  });
});
