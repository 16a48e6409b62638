import { describe, expect, it } from "vitest";
import { api, created, expectProblem, issuePaths, KEYS, uid } from "./helpers";

const BASE = "/v1/api/trade-conditions";

const group = async () =>
  (await created<{ code: string }>("/v1/api/customer-group", { code: uid("G"), name: "Group" }))
    .code;
const customer = async () =>
  (await created<{ code: string }>("/v1/api/customer", { code: uid("C"), name: "Customer" })).code;
const channel = async () =>
  (await created<{ code: string }>("/v1/api/channel", { code: uid("CH"), name: "Channel" })).code;

const condition = (scope: string, overrides: Record<string, unknown> = {}) =>
  created<{ id: number; [key: string]: unknown }>(BASE, {
    name: `${scope} 5 %`,
    scope,
    type: "DISCOUNT",
    discountType: "PERCENTAGE",
    value: 500,
    ...overrides,
  });

const read = async (id: number) => (await api("GET", `${BASE}/${id}`)).body;

/** Moves a condition to ARCHIVED through the API. */
async function archive(id: number) {
  const res = await api("PATCH", `${BASE}/${id}`, { body: { status: "ARCHIVED" } });
  expect(res.body.status).toBe("ARCHIVED");
}

const roundTrips = (res: { headers: Headers }) =>
  Number(/^db;desc="(\d+) quer/.exec(res.headers.get("server-timing") ?? "")?.[1]);

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

  describe(`trade condition ${kind.label}: assign`, () => {
    it("assigns, splits skipped/notFound, counts duplicates once, and shows the targets", async () => {
      const tc = await condition(kind.scope);
      expect(tc[kind.field]).toEqual([]);
      const [a, b] = [await kind.make(), await kind.make()];
      const first = await api("POST", assignPath(tc.id), { body: body([b, "NOPE-1", b, a]) });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ assigned: [b, a], skipped: ["NOPE-1"], notFound: ["NOPE-1"] });
      // One read checks the condition, one batch resolves the codes and writes the links.
      expect(roundTrips(first)).toBe(2);
      expect((await read(tc.id))[kind.field]).toEqual([a, b].sort());
    });

    it("is idempotent: a repeat assigns nothing and skips everything", async () => {
      const tc = await condition(kind.scope);
      const [a, b] = [await kind.make(), await kind.make()];
      await api("POST", assignPath(tc.id), { body: body([a]) });
      const again = await api("POST", assignPath(tc.id), { body: body([a, b]) });
      expect(again.status).toBe(201);
      expect(again.body).toEqual({ assigned: [b], skipped: [a], notFound: [] });
      const repeat = await api("POST", assignPath(tc.id), { body: body([a, b]) });
      expect(repeat.body).toEqual({ assigned: [], skipped: [a, b], notFound: [] });
      const after = await read(tc.id);
      expect(after[kind.field]).toEqual([a, b].sort());
      // Targets do not touch the condition's own fields.
      expect(after).toEqual({ ...tc, [kind.field]: [a, b].sort() });
    });

    it("handles 1000 codes in at most 3 round trips", async () => {
      const tc = await condition(kind.scope);
      const real = await kind.make();
      const codes = [real, ...Array.from({ length: 999 }, (_, i) => `MISSING-${i}`)];
      const res = await api("POST", assignPath(tc.id), { body: body(codes) });
      expect(res.status).toBe(201);
      expect(res.body.assigned).toEqual([real]);
      expect(res.body.skipped).toEqual(codes.slice(1));
      expect(res.body.notFound).toEqual(codes.slice(1));
      expect(roundTrips(res)).toBeLessThanOrEqual(3);
      expect((await read(tc.id))[kind.field]).toEqual([real]);
    });

    it(`refuses a condition whose scope is not ${kind.scope} (409 naming the scope)`, async () => {
      const code = await kind.make();
      const others = ["GLOBAL", "CUSTOMER_GROUP", "CUSTOMER"].filter((s) => s !== kind.scope);
      for (const scope of others) {
        const tc = await condition(scope);
        const res = await api("POST", assignPath(tc.id), { body: body([code]) });
        expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
          `trade condition ${tc.id} has scope ${scope}; only ${kind.scope}-scope conditions take ${kind.label}`,
        );
        expect((await read(tc.id))[kind.field]).toEqual([]);
      }
      const ch = await channel();
      const byChannel = await condition("CHANNEL", { channelCodes: [ch] });
      const res = await api("POST", assignPath(byChannel.id), { body: body([code]) });
      expect(expectProblem(res, 409, "CONFLICT").detail).toContain("has scope CHANNEL");
    });

    it("refuses an ARCHIVED condition (409) and writes nothing", async () => {
      const tc = await condition(kind.scope);
      await archive(tc.id);
      const res = await api("POST", assignPath(tc.id), { body: body([await kind.make()]) });
      expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
        `trade condition ${tc.id} is ARCHIVED and can no longer be edited`,
      );
      expect((await read(tc.id))[kind.field]).toEqual([]);
    });

    it("answers 404 for an unknown condition", async () => {
      const res = await api("POST", assignPath(999999999), { body: body(["X"]) });
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(
        "trade condition 999999999 not found",
      );
    });

    it("validates the body and the id (400 naming the field)", async () => {
      const tc = await condition(kind.scope);
      const path = assignPath(tc.id);
      expect(issuePaths(await api("POST", path, { body: body([]) }))).toEqual([
        `body.${kind.field}`,
      ]);
      const tooMany = Array.from({ length: 1001 }, (_, i) => `X-${i}`);
      expect(issuePaths(await api("POST", path, { body: body(tooMany) }))).toEqual([
        `body.${kind.field}`,
      ]);
      expect(issuePaths(await api("POST", path, { body: body(["bad code"]) }))).toEqual([
        `body.${kind.field}.0`,
      ]);
      expect(issuePaths(await api("POST", path, { body: {} }))).toEqual([`body.${kind.field}`]);
      expect(issuePaths(await api("POST", path, { body: { ...body(["A"]), extra: 1 } }))).toEqual([
        "body.extra",
      ]);
      expect(issuePaths(await api("POST", assignPath("abc"), { body: body(["A"]) }))).toEqual([
        "path.id",
      ]);
      expectProblem(
        await api("POST", path, { raw: "{", headers: { "content-type": "application/json" } }),
        400,
        "MALFORMED_JSON",
      );
      expectProblem(
        await api("POST", path, { raw: "x", headers: { "content-type": "text/plain" } }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      );
      expect((await read(tc.id))[kind.field]).toEqual([]);
    });

    it("needs a key (401) and the admin role (403)", async () => {
      const tc = await condition(kind.scope);
      const code = await kind.make();
      expectProblem(
        await api("POST", assignPath(tc.id), { key: null, body: body([code]) }),
        401,
        "UNAUTHORIZED",
      );
      expectProblem(
        await api("POST", assignPath(tc.id), { key: KEYS.read, body: body([code]) }),
        403,
        "FORBIDDEN",
      );
      expect((await read(tc.id))[kind.field]).toEqual([]);
    });
  });

  describe(`trade condition ${kind.label}: unassign`, () => {
    it("unassigns existing codes (also unassigned ones), reports unknown ones, and is idempotent", async () => {
      const tc = await condition(kind.scope);
      const [a, b, c] = [await kind.make(), await kind.make(), await kind.make()];
      await api("POST", assignPath(tc.id), { body: body([a, b]) });
      const res = await api("POST", unassignPath(tc.id), { body: body([a, c, "NOPE-2", a]) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ unassigned: [a, c], notFound: ["NOPE-2"] });
      expect(roundTrips(res)).toBe(2);
      expect((await read(tc.id))[kind.field]).toEqual([b]);
      const again = await api("POST", unassignPath(tc.id), { body: body([a, c, "NOPE-2"]) });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ unassigned: [a, c], notFound: ["NOPE-2"] });
      expect((await read(tc.id))[kind.field]).toEqual([b]);
    });

    it("handles 1000 codes in at most 3 round trips", async () => {
      const tc = await condition(kind.scope);
      const [a, b] = [await kind.make(), await kind.make()];
      await api("POST", assignPath(tc.id), { body: body([a, b]) });
      const codes = [a, ...Array.from({ length: 999 }, (_, i) => `MISSING-${i}`)];
      const res = await api("POST", unassignPath(tc.id), { body: body(codes) });
      expect(res.status).toBe(200);
      expect(res.body.unassigned).toEqual([a]);
      expect(res.body.notFound).toEqual(codes.slice(1));
      expect(roundTrips(res)).toBeLessThanOrEqual(3);
      expect((await read(tc.id))[kind.field]).toEqual([b]);
    });

    it("works whatever the scope (there is simply nothing linked)", async () => {
      const tc = await condition("GLOBAL");
      const code = await kind.make();
      const res = await api("POST", unassignPath(tc.id), { body: body([code]) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ unassigned: [code], notFound: [] });
    });

    it("refuses an ARCHIVED condition (409) and keeps its targets", async () => {
      const tc = await condition(kind.scope);
      const code = await kind.make();
      await api("POST", assignPath(tc.id), { body: body([code]) });
      await archive(tc.id);
      const res = await api("POST", unassignPath(tc.id), { body: body([code]) });
      expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
        `trade condition ${tc.id} is ARCHIVED and can no longer be edited`,
      );
      expect((await read(tc.id))[kind.field]).toEqual([code]);
    });

    it("answers 404 for an unknown condition, 400 for bad input, 401 and 403", async () => {
      const res = await api("POST", unassignPath(999999999), { body: body(["X"]) });
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(
        "trade condition 999999999 not found",
      );
      const tc = await condition(kind.scope);
      const path = unassignPath(tc.id);
      expect(issuePaths(await api("POST", path, { body: body([]) }))).toEqual([
        `body.${kind.field}`,
      ]);
      const tooMany = Array.from({ length: 1001 }, (_, i) => `X-${i}`);
      expect(issuePaths(await api("POST", path, { body: body(tooMany) }))).toEqual([
        `body.${kind.field}`,
      ]);
      expect(issuePaths(await api("POST", path, { body: { codes: ["A"] } })).sort()).toEqual(
        ["body.codes", `body.${kind.field}`].sort(),
      );
      expect(issuePaths(await api("POST", unassignPath("0"), { body: body(["A"]) }))).toEqual([
        "path.id",
      ]);
      expectProblem(await api("POST", path, { key: null, body: body(["A"]) }), 401, "UNAUTHORIZED");
      expectProblem(
        await api("POST", path, { key: KEYS.read, body: body(["A"]) }),
        403,
        "FORBIDDEN",
      );
    });
  });

  describe(`trade condition ${kind.label}: scope changes by PATCH`, () => {
    it(`refuses leaving ${kind.scope} while targets exist (409), allows it once they are gone`, async () => {
      const tc = await condition(kind.scope);
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
    await created("/v1/api/customer-group", { code, name: "Group" });
    await created("/v1/api/customer", { code, name: "Customer" });
    const byGroup = await condition("CUSTOMER_GROUP");
    const byCustomer = await condition("CUSTOMER");
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
    const tc = await condition("CUSTOMER_GROUP", { name: tag });
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
