import { describe, expect, it } from "vitest";
import {
  archiveTradeCondition,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createTradeCondition,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";
import { describeBulkAssign } from "../shared/bulk-assign";

const BASE = "/v1/api/trade-conditions";

const group = async (): Promise<string> => (await createCustomerGroup()).code;
const customer = async (): Promise<string> => (await createCustomer()).code;

const read = async (id: number) => (await api("GET", `${BASE}/${id}`)).body;

/** The two target kinds share every rule; the table drives one suite per kind. */
const KINDS = [
  {
    label: "customer groups",
    scope: "CUSTOMER_GROUP",
    path: "customer-groups",
    field: "customerGroupCodes",
    make: group,
  },
  {
    label: "customers",
    scope: "CUSTOMER",
    path: "customers",
    field: "customerCodes",
    make: customer,
  },
] as const;

for (const kind of KINDS) {
  const assignPath = (id: number | string) => `${BASE}/${id}/${kind.path}`;
  const unassignPath = (id: number | string) => `${BASE}/${id}/${kind.path}/unassign`;
  const body = (codes: string[]) => ({ [kind.field]: codes });

  describeBulkAssign({
    label: `trade condition ${kind.label}`,
    path: assignPath,
    field: kind.field,
    createOwner: async () => (await createTradeCondition({ scope: kind.scope })).id as number,
    createTarget: kind.make,
    linked: async (id, codes) =>
      ((await read(id))[kind.field] as string[]).filter((c) => codes.includes(c)),
    missingOwner: { key: 999_999_999, detail: "trade condition 999999999 not found" },
    badOwnerKeys: ["abc", "0"],
    badOwnerIssue: "path.id",
    // One read checks the condition, one batch resolves the codes and writes the links.
    roundTrips: {
      assign: { exactly: 2 },
      unassign: { exactly: 2 },
      bulkAssign: { atMost: 3 },
      bulkUnassign: { atMost: 3 },
    },
  });

  describe(`trade condition ${kind.label}: assign`, () => {
    it("leaves the condition's own fields alone", async () => {
      const tc = await createTradeCondition({ scope: kind.scope });
      expect(tc[kind.field]).toEqual([]);
      const [a, b] = [await kind.make(), await kind.make()];
      expect((await api("POST", assignPath(tc.id), { body: body([b, a]) })).status).toBe(201);
      expect(await read(tc.id)).toEqual({ ...tc, [kind.field]: [a, b].sort() });
    });

    it(`refuses a condition whose scope is not ${kind.scope} (409 naming the scope)`, async () => {
      const code = await kind.make();
      const others = ["GLOBAL", "CUSTOMER_GROUP", "CUSTOMER"].filter((s) => s !== kind.scope);
      for (const scope of others) {
        const tc = await createTradeCondition({ scope });
        const res = await api("POST", assignPath(tc.id), { body: body([code]) });
        expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
          `trade condition ${tc.id} has scope ${scope}; only ${kind.scope}-scope conditions take ${kind.label}`,
        );
        expect((await read(tc.id))[kind.field]).toEqual([]);
      }
      const ch = (await createChannel()).code;
      const byChannel = await createTradeCondition({ scope: "CHANNEL", channelCodes: [ch] });
      const res = await api("POST", assignPath(byChannel.id), { body: body([code]) });
      expect(expectProblem(res, 409, "CONFLICT").detail).toContain("has scope CHANNEL");
    });

    it("refuses an ARCHIVED condition (409) and writes nothing", async () => {
      const tc = await createTradeCondition({ scope: kind.scope });
      await archiveTradeCondition(tc.id);
      const res = await api("POST", assignPath(tc.id), { body: body([await kind.make()]) });
      expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
        `trade condition ${tc.id} is ARCHIVED and can no longer be edited`,
      );
      expect((await read(tc.id))[kind.field]).toEqual([]);
    });
  });

  describe(`trade condition ${kind.label}: unassign`, () => {
    it("works whatever the scope (there is simply nothing linked)", async () => {
      const tc = await createTradeCondition({ scope: "GLOBAL" });
      const code = await kind.make();
      const res = await api("POST", unassignPath(tc.id), { body: body([code]) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ unassigned: [code], notFound: [] });
    });

    it("refuses an ARCHIVED condition (409) and keeps its targets", async () => {
      const tc = await createTradeCondition({ scope: kind.scope });
      const code = await kind.make();
      await api("POST", assignPath(tc.id), { body: body([code]) });
      await archiveTradeCondition(tc.id);
      const res = await api("POST", unassignPath(tc.id), { body: body([code]) });
      expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
        `trade condition ${tc.id} is ARCHIVED and can no longer be edited`,
      );
      expect((await read(tc.id))[kind.field]).toEqual([code]);
    });
  });

  describe(`trade condition ${kind.label}: scope changes by PATCH`, () => {
    it(`refuses leaving ${kind.scope} while targets exist (409), allows it once they are gone`, async () => {
      const tc = await createTradeCondition({ scope: kind.scope });
      const code = await kind.make();
      await api("POST", assignPath(tc.id), { body: body([code]) });
      const path = `${BASE}/${tc.id}`;

      // Same scope, other fields: fine, targets stay.
      const renamed = await api("PATCH", path, { body: { scope: kind.scope, name: "Renamed" } });
      expect(renamed.status).toBe(200);
      expect(renamed.body[kind.field]).toEqual([code]);

      const refused = await api("PATCH", path, { body: { scope: "GLOBAL", name: "Nope" } });
      expect(expectProblem(refused, 409, "CONFLICT").detail).toBe(
        `trade condition ${tc.id} still targets 1 ${kind.label}; unassign them ` +
          `(POST /v1/api/trade-conditions/${tc.id}/${kind.path}/unassign) ` +
          `before changing its scope from ${kind.scope} to GLOBAL`,
      );
      expect(await read(tc.id)).toEqual(renamed.body);

      await api("POST", unassignPath(tc.id), { body: body([code]) });
      const moved = await api("PATCH", path, { body: { scope: "GLOBAL" } });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ scope: "GLOBAL", [kind.field]: [] });
    });
  });
}

describe("trade condition targets: the two kinds stay apart", () => {
  it("a code that is both a group and a customer code lands only where it was sent", async () => {
    const code = uid("BOTH");
    await createCustomerGroup({ code });
    await createCustomer({ code });
    const byGroup = await createTradeCondition({ scope: "CUSTOMER_GROUP" });
    const byCustomer = await createTradeCondition({ scope: "CUSTOMER" });
    await api("POST", `${BASE}/${byGroup.id}/customer-groups`, {
      body: { customerGroupCodes: [code] },
    });
    await api("POST", `${BASE}/${byCustomer.id}/customers`, { body: { customerCodes: [code] } });
    expect(await read(byGroup.id)).toMatchObject({ customerGroupCodes: [code], customerCodes: [] });
    expect(await read(byCustomer.id)).toMatchObject({
      customerGroupCodes: [],
      customerCodes: [code],
    });
    // The wrong body key for the route is an unknown field.
    const wrong = await api("POST", `${BASE}/${byGroup.id}/customer-groups`, {
      body: { customerCodes: [code] },
    });
    expect(issuePaths(wrong).sort()).toEqual(["body.customerCodes", "body.customerGroupCodes"]);
  });

  it("the list shows the targets too, still in one round trip", async () => {
    const tag = uid("TGT");
    const tc = await createTradeCondition({ scope: "CUSTOMER_GROUP", name: tag });
    const [a, b] = [await group(), await group()];
    await api("POST", `${BASE}/${tc.id}/customer-groups`, { body: { customerGroupCodes: [b, a] } });
    const res = await api("GET", `${BASE}?search=${tag}`, { key: KEYS.read });
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    expect(res.body.data).toEqual([{ ...tc, customerGroupCodes: [a, b].sort() }]);
  });
});

describe("trade condition relations: OpenAPI", () => {
  it("documents each route with its operationId and exactly its statuses", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    const op = (path: string, method: string) => doc.paths[path][method];
    const statuses = (o: { responses: object }) => Object.keys(o.responses).sort();
    const writes = ["400", "401", "403", "404", "409", "413", "415", "429"];
    const routes = [
      [
        "/v1/api/trade-conditions/{id}/customer-groups",
        "assignCustomerGroupsToTradeCondition",
        "201",
      ],
      [
        "/v1/api/trade-conditions/{id}/customer-groups/unassign",
        "unassignCustomerGroupsFromTradeCondition",
        "200",
      ],
      ["/v1/api/trade-conditions/{id}/customers", "assignCustomersToTradeCondition", "201"],
      [
        "/v1/api/trade-conditions/{id}/customers/unassign",
        "unassignCustomersFromTradeCondition",
        "200",
      ],
    ] as const;
    for (const [path, operationId, ok] of routes) {
      const o = op(path, "post");
      expect(o).toMatchObject({ operationId, tags: ["Trade conditions"] });
      expect(o.summary).toBeTruthy();
      expect(o.description).toContain("ARCHIVED");
      expect(statuses(o)).toEqual([ok, ...writes].sort());
    }
    const list = op("/v1/api/customer/{code}/trade-conditions", "get");
    expect(list).toMatchObject({ operationId: "listCustomerTradeConditions", tags: ["Customers"] });
    expect(list.description).toContain("4 × the rowid of the link row");
    expect(statuses(list)).toEqual(["200", "400", "401", "404", "429"]);
    const searchBy = list.parameters.find((p: { name: string }) => p.name === "searchBy");
    expect(JSON.stringify(searchBy.schema)).toContain("tradeCondition.type");
    const names = list.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(["code", "filter.scope", "filter.status"]));
    expect(names).not.toContain("select");
  });
});
