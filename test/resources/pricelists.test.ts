import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createDb, DbMeter } from "../../src/db/client";
import { derivationFits } from "../../src/resources/pricelists/pricelists.repo";
import { sql } from "drizzle-orm";
import {
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
  setPricelistStatus,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";

describe("pricelists", () => {
  it("creates a GENERAL pricelist with defaults and reads it back", async () => {
    const res = await api("POST", "/v1/api/pricelist", {
      body: { name: "Web DE list", currency: "EUR" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Web DE list",
      scope: "GENERAL",
      status: "DRAFT",
      currency: "EUR",
      priority: 0,
      validFrom: null,
      validTo: null,
      taxInclusive: false,
      allowsTradeDiscounts: true,
      customerCode: null,
      kind: "SALES",
      derivation: null,
      tierMode: "VOLUME",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // Without a derivation a create is still one statement.
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    const read = await api("GET", `/v1/api/pricelist/${res.body.id}`, { key: KEYS.read });
    expect(read.body).toEqual(res.body);
  });

  it("accepts ACTIVE on create, priority and a validity window as ISO instants", async () => {
    const pl = await createPricelist({
      status: "ACTIVE",
      priority: 10,
      validFrom: "2025-01-01",
      validTo: "2026-01-01T00:00:00+01:00",
      taxInclusive: true,
    });
    expect(pl).toMatchObject({
      status: "ACTIVE",
      priority: 10,
      validFrom: "2025-01-01T00:00:00.000Z",
      validTo: "2025-12-31T23:00:00.000Z",
      taxInclusive: true,
    });
  });

  it("validates create bodies, naming every field", async () => {
    const res = await api("POST", "/v1/api/pricelist", {
      body: {
        name: "",
        currency: "eur",
        status: "ARCHIVED",
        priority: 1.5,
        validFrom: "yesterday",
      },
    });
    expect(issuePaths(res).sort()).toEqual([
      "body.currency",
      "body.name",
      "body.priority",
      "body.status",
      "body.validFrom",
    ]);
    const window = await api("POST", "/v1/api/pricelist", {
      body: { name: "x", currency: "EUR", validFrom: "2026-01-01", validTo: "2025-01-01" },
    });
    expect(issuePaths(window)).toEqual(["body.validTo"]);
    expect(issuePaths(await api("POST", "/v1/api/pricelist", { body: { name: "x" } }))).toEqual([
      "body.currency",
    ]);
  });

  it("creates an INDIVIDUAL pricelist as DRAFT, owned by the customer, not discountable by default", async () => {
    const customerCode = (await createCustomer()).code;
    const res = await api("POST", "/v1/api/pricelist/individual", {
      body: { customerCode, name: "Contract prices", currency: "EUR" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      scope: "INDIVIDUAL",
      status: "DRAFT",
      customerCode,
      allowsTradeDiscounts: false,
    });
    const unknown = await api("POST", "/v1/api/pricelist/individual", {
      body: { customerCode: "NOBODY-1", name: "x", currency: "EUR" },
    });
    expect(issuePaths(unknown)).toEqual(["body.customerCode"]);
    expect(unknown.body.errors[0].message).toContain("NOBODY-1");
    // Status is always DRAFT on creation of an individual pricelist.
    const extra = await api("POST", "/v1/api/pricelist/individual", {
      body: { customerCode, name: "x", currency: "EUR", status: "ACTIVE" },
    });
    expect(issuePaths(extra)).toEqual(["body.status"]);
  });

  it("follows the status transitions and refuses illegal ones with 409", async () => {
    const pl = await createPricelist();
    const patch = (body: unknown) => api("PATCH", `/v1/api/pricelist/${pl.id}`, { body });

    const illegal = await patch({ status: "INACTIVE" });
    const problem = expectProblem(illegal, 409, "INVALID_STATUS_TRANSITION");
    expect(problem.detail).toContain("DRAFT");
    expect(problem.detail).toContain("INACTIVE");

    expect((await patch({ status: "ACTIVE" })).body.status).toBe("ACTIVE");
    expect((await patch({ status: "INACTIVE" })).body.status).toBe("INACTIVE");
    expect((await patch({ status: "ACTIVE" })).body.status).toBe("ACTIVE");
    expectProblem(await patch({ status: "DRAFT" }), 409, "INVALID_STATUS_TRANSITION");
    expect((await patch({ status: "ARCHIVED" })).body.status).toBe("ARCHIVED");
    expectProblem(await patch({ status: "ACTIVE" }), 409, "INVALID_STATUS_TRANSITION");
    expectProblem(await patch({ name: "renamed" }), 409, "CONFLICT");
  });

  it("updates fields, keeps the merged window valid and the currency fixed once active", async () => {
    const pl = await createPricelist({ validFrom: "2025-01-01" });
    const res = await api("PATCH", `/v1/api/pricelist/${pl.id}`, {
      body: { name: "Renamed", priority: 5, currency: "CHF", validTo: "2025-06-01" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Renamed",
      priority: 5,
      currency: "CHF",
      validTo: "2025-06-01T00:00:00.000Z",
    });
    expect(res.body.updatedAt >= pl.updatedAt).toBe(true);

    const bad = await api("PATCH", `/v1/api/pricelist/${pl.id}`, {
      body: { validTo: "2024-01-01" },
    });
    expect(issuePaths(bad)).toEqual(["body.validTo"]);
    const cleared = await api("PATCH", `/v1/api/pricelist/${pl.id}`, { body: { validTo: null } });
    expect(cleared.body.validTo).toBeNull();

    await api("PATCH", `/v1/api/pricelist/${pl.id}`, { body: { status: "ACTIVE" } });
    const currency = await api("PATCH", `/v1/api/pricelist/${pl.id}`, {
      body: { currency: "EUR" },
    });
    expect(expectProblem(currency, 409, "CONFLICT").detail).toContain("currency");
  });

  it("answers 404 for unknown ids and 400 for malformed ones", async () => {
    expectProblem(await api("GET", "/v1/api/pricelist/999999"), 404, "NOT_FOUND");
    expect(
      expectProblem(await api("GET", "/v1/api/pricelist/999999"), 404, "NOT_FOUND").detail,
    ).toBe("pricelist 999999 not found");
    expectProblem(
      await api("PATCH", "/v1/api/pricelist/999999", { body: { name: "x" } }),
      404,
      "NOT_FOUND",
    );
    for (const id of ["abc", "0", "-1", "1.5", "1e3"]) {
      expect(issuePaths(await api("GET", `/v1/api/pricelist/${id}`))).toEqual(["path.id"]);
    }
  });

  it("requires an admin key to write", async () => {
    expectProblem(
      await api("POST", "/v1/api/pricelist", { key: null, body: {} }),
      401,
      "UNAUTHORIZED",
    );
    const res = await api("POST", "/v1/api/pricelist", {
      key: KEYS.read,
      body: { name: "x", currency: "EUR" },
    });
    expectProblem(res, 403, "FORBIDDEN");
  });

  it("lists with scope ($eq, $not) and status filters, sorted by name case-insensitively", async () => {
    const tag = uid("PLS");
    const names = [`${tag} Mu`, `${tag} lambda`, `${tag} Kappa`];
    const made: any[] = [];
    for (const name of names) made.push(await createPricelist({ name, status: "ACTIVE" }));
    const customerCode = (await createCustomer()).code;
    await createIndividualPricelist(customerCode, { name: `${tag} own` });

    const sorted = await api(
      "GET",
      "/v1/api/pricelist?sortBy=name:asc&filter.scope=GENERAL&limit=100",
    );
    const ours = sorted.body.data
      .filter((p: any) => p.name.startsWith(tag))
      .map((p: any) => p.name);
    expect(ours).toEqual([`${tag} Kappa`, `${tag} lambda`, `${tag} Mu`]);
    expect(sorted.body.meta.filter).toEqual({ scope: "GENERAL" });

    const individual = await api("GET", "/v1/api/pricelist?filter.scope=$not:GENERAL");
    expect(individual.body.data.every((p: any) => p.scope === "INDIVIDUAL")).toBe(true);
    expect(individual.body.data.some((p: any) => p.name === `${tag} own`)).toBe(true);

    const drafts = await api("GET", "/v1/api/pricelist?filter.status=DRAFT&limit=100");
    expect(drafts.body.data.every((p: any) => p.status === "DRAFT")).toBe(true);
    expect(drafts.body.data.some((p: any) => p.id === made[0].id)).toBe(false);

    expect(issuePaths(await api("GET", "/v1/api/pricelist?filter.status=$not:DRAFT"))).toEqual([
      "query.filter.status",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/pricelist?filter.scope=general"))).toEqual([
      "query.filter.scope",
    ]);
    // Searchable by name only (test/lists/read-outs.test.ts searches it).
    expect(issuePaths(await api("GET", "/v1/api/pricelist?search=x&searchBy=scope"))).toEqual([
      "query.searchBy",
    ]);
    expect(sorted.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
  });
});

const PL = "/v1/api/pricelist";
const patchList = (id: number, body: unknown) => api("PATCH", `${PL}/${id}`, { body });
const derived = (basePricelistId: number, overrides: Record<string, unknown> = {}) =>
  createPricelist({ derivation: { basePricelistId, adjustmentBp: -1000 }, ...overrides });

describe("pricelists: kind", () => {
  it("is SALES by default, FLOOR on request, and changes only while DRAFT", async () => {
    const floor = await createPricelist({ kind: "FLOOR" });
    expect(floor).toMatchObject({ kind: "FLOOR", derivation: null });
    const sales = await createPricelist();
    expect(sales.kind).toBe("SALES");
    expect((await patchList(sales.id, { kind: "FLOOR" })).body.kind).toBe("FLOOR");
    await setPricelistStatus(sales.id, "ACTIVE");
    const active = await patchList(sales.id, { kind: "SALES" });
    expect(expectProblem(active, 409, "CONFLICT").detail).toBe(
      `pricelist ${sales.id} is ACTIVE; its kind can change only while DRAFT`,
    );
    expect(
      issuePaths(await api("POST", PL, { body: { name: "x", currency: "EUR", kind: "CEILING" } })),
    ).toEqual(["body.kind"]);
  });

  it("an INDIVIDUAL pricelist is always SALES and never derived (400 naming the field)", async () => {
    const customer = await createCustomer();
    const own = await createIndividualPricelist(customer.code);
    expect(own).toMatchObject({ kind: "SALES", derivation: null });
    const base = await createPricelist();
    const res = await patchList(own.id, {
      kind: "FLOOR",
      derivation: { basePricelistId: base.id, adjustmentBp: 0 },
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.kind",
        message:
          "must be SALES for an INDIVIDUAL pricelist (FLOOR and COST pricelists are assigned to channels)",
      },
      {
        path: "body.derivation",
        message: "only GENERAL SALES and FLOOR pricelists can be derived; this one is INDIVIDUAL",
      },
    ]);
    // Not a field of the individual create.
    const create = await api("POST", `${PL}/individual`, {
      body: { customerCode: customer.code, name: "x", currency: "EUR", kind: "FLOOR" },
    });
    expect(issuePaths(create)).toEqual(["body.kind"]);
  });
});

describe("pricelists: FLOOR assignment (docs/api/relations.md §5.2)", () => {
  it("assigns a FLOOR pricelist to channels only: never primary, never to groups or customers", async () => {
    const floor = await createPricelist({ kind: "FLOOR" });
    const channel = await createChannel();
    await assignPricelistToChannel(channel.code, floor.id);
    const refusals = [
      [
        "PUT",
        `/v1/api/channel/${channel.code}/pricelist/primary`,
        `made the primary pricelist of channel ${channel.code}`,
      ],
      [
        "POST",
        `/v1/api/customer-group/${(await createCustomerGroup()).code}/pricelist`,
        "assigned to customer group",
      ],
      [
        "POST",
        `/v1/api/customer/${(await createCustomer()).code}/pricelist`,
        "assigned to customer",
      ],
    ] as const;
    for (const [method, path, words] of refusals) {
      const res = await api(method, path, { body: { pricelistId: floor.id } });
      const detail = expectProblem(res, 409, "PRICELIST_NOT_ASSIGNABLE").detail;
      expect(detail).toContain(`pricelist ${floor.id} is a FLOOR pricelist and cannot be ${words}`);
      expect(detail).toContain(
        "FLOOR pricelists are assigned to channels only, never as their primary",
      );
    }
    const group = await createCustomerGroup();
    const bulk = await api("POST", `${PL}/${floor.id}/customer-groups`, {
      body: { customerGroupCodes: [group.code] },
    });
    expect(expectProblem(bulk, 409, "PRICELIST_NOT_ASSIGNABLE").detail).toBe(
      `pricelist ${floor.id} is a FLOOR pricelist and cannot be assigned to customer groups; ` +
        "FLOOR pricelists are assigned to channels only, never as their primary",
    );
  });

  it("refuses to make a pricelist FLOOR while it is assigned where a FLOOR may not be, naming where", async () => {
    const pl = await createPricelist();
    const group = await createCustomerGroup();
    const channel = await createChannel();
    await api("POST", `/v1/api/customer-group/${group.code}/pricelist`, {
      body: { pricelistId: pl.id },
    });
    await api("PUT", `/v1/api/channel/${channel.code}/pricelist/primary`, {
      body: { pricelistId: pl.id },
    });
    const res = await patchList(pl.id, { kind: "FLOOR", name: "Not written" });
    expect(expectProblem(res, 409, "PRICELIST_NOT_ASSIGNABLE").detail).toBe(
      `pricelist ${pl.id} is assigned to customer groups ${group.code} and the primary of channels ` +
        `${channel.code}; a FLOOR pricelist is assigned to channels only and never primary: unassign it there first`,
    );
    expect((await api("GET", `${PL}/${pl.id}`)).body).toMatchObject({
      kind: "SALES",
      name: pl.name,
    });
  });
});

describe("pricelists: derivation (docs/api/relations.md §5.8)", () => {
  it("stores a derivation, rounding optional, and removes it with null", async () => {
    const base = await createPricelist();
    const pl = await createPricelist({
      derivation: {
        basePricelistId: base.id,
        adjustmentBp: -1000,
        rounding: { mode: "NEAREST", step: 10, ending: 9 },
      },
    });
    expect(pl.derivation).toEqual({
      basePricelistId: base.id,
      adjustmentBp: -1000,
      rounding: { mode: "NEAREST", step: 10, ending: 9 },
    });
    expect((await api("GET", `${PL}/${pl.id}`)).body).toEqual(pl);
    const plain = await derived(base.id);
    expect(plain.derivation).toEqual({
      basePricelistId: base.id,
      adjustmentBp: -1000,
      rounding: null,
    });
    const cleared = await patchList(pl.id, { derivation: null });
    expect(cleared.body.derivation).toBeNull();
    const set = await patchList(pl.id, {
      derivation: {
        basePricelistId: base.id,
        adjustmentBp: 500,
        rounding: { mode: "UP", step: 100, ending: 0 },
      },
    });
    expect(set.body.derivation).toEqual({
      basePricelistId: base.id,
      adjustmentBp: 500,
      rounding: { mode: "UP", step: 100, ending: 0 },
    });
  });

  it("validates the derivation's fields, naming each", async () => {
    const base = await createPricelist();
    const res = await api("POST", PL, {
      body: {
        name: "x",
        currency: "EUR",
        derivation: {
          basePricelistId: base.id,
          adjustmentBp: -10000,
          rounding: { mode: "HALF_EVEN", step: 0, ending: -1 },
          extra: 1,
        },
      },
    });
    expect(issuePaths(res).sort()).toEqual([
      "body.derivation.adjustmentBp",
      "body.derivation.extra",
      "body.derivation.rounding.ending",
      "body.derivation.rounding.mode",
      "body.derivation.rounding.step",
    ]);
    const ending = await api("POST", PL, {
      body: {
        name: "x",
        currency: "EUR",
        derivation: {
          basePricelistId: base.id,
          adjustmentBp: 100_001,
          rounding: { mode: "UP", step: 10, ending: 10 },
        },
      },
    });
    expect(expectProblem(ending, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.derivation.adjustmentBp", message: "must be at most 100000" },
      { path: "body.derivation.rounding.ending", message: "must be less than step (10)" },
    ]);
    const unknown = await api("POST", PL, {
      body: {
        name: "x",
        currency: "EUR",
        derivation: { basePricelistId: 987654321, adjustmentBp: 0 },
      },
    });
    expect(expectProblem(unknown, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.derivation.basePricelistId", message: "unknown pricelist 987654321" },
    ]);
  });

  it("refuses itself and an INDIVIDUAL or FLOOR base (409); takes a base in another currency", async () => {
    const pl = await createPricelist();
    const self = await patchList(pl.id, {
      derivation: { basePricelistId: pl.id, adjustmentBp: 0 },
    });
    expect(expectProblem(self, 409, "CONFLICT").detail).toBe(
      `pricelist ${pl.id} cannot derive from itself`,
    );

    const own = await createIndividualPricelist((await createCustomer()).code);
    const individual = await patchList(pl.id, {
      derivation: { basePricelistId: own.id, adjustmentBp: 0 },
    });
    expect(expectProblem(individual, 409, "CONFLICT").detail).toBe(
      `pricelist ${own.id} is INDIVIDUAL SALES; only a GENERAL SALES pricelist can be the base of a SALES pricelist`,
    );
    const floor = await createPricelist({ kind: "FLOOR" });
    const fromFloor = await api("POST", PL, {
      body: {
        name: "x",
        currency: "EUR",
        derivation: { basePricelistId: floor.id, adjustmentBp: 0 },
      },
    });
    expect(expectProblem(fromFloor, 409, "CONFLICT").detail).toBe(
      `pricelist ${floor.id} is GENERAL FLOOR; only a GENERAL SALES pricelist can be the base of a SALES pricelist`,
    );
    // docs/pricing-rules.md §19: the base's amounts are converted at the rate in force.
    const usd = await createPricelist({ currency: "USD" });
    const currency = await patchList(pl.id, {
      derivation: { basePricelistId: usd.id, adjustmentBp: 0 },
    });
    expect(currency.status).toBe(200);
    expect(currency.body).toMatchObject({
      currency: "EUR",
      derivation: { basePricelistId: usd.id, adjustmentBp: 0, rounding: null },
    });
    await patchList(pl.id, { derivation: null });
    // A FLOOR pricelist derives from a COST list only; a derived SALES list never made FLOOR.
    const floorDerived = await api("POST", PL, {
      body: {
        name: "x",
        currency: "EUR",
        kind: "FLOOR",
        derivation: { basePricelistId: pl.id, adjustmentBp: 0 },
      },
    });
    expect(expectProblem(floorDerived, 409, "CONFLICT").detail).toBe(
      `pricelist ${pl.id} is GENERAL SALES; a FLOOR pricelist derives only from a COST pricelist`,
    );
    const child = await derived(pl.id);
    expect(
      expectProblem(await patchList(child.id, { kind: "FLOOR" }), 409, "CONFLICT").detail,
    ).toBe(
      `pricelist ${pl.id} is GENERAL SALES; a FLOOR pricelist derives only from a COST pricelist`,
    );
    expect((await api("GET", `${PL}/${pl.id}`)).body.derivation).toBeNull();
  });

  it("lets a derived pricelist change its currency, but keeps a base's while lists derive from it", async () => {
    const base = await createPricelist();
    const [a, b] = [await derived(base.id), await derived(base.id)];
    expect((await patchList(a.id, { currency: "USD" })).body.currency).toBe("USD");
    const baseChange = await patchList(base.id, { currency: "USD" });
    expect(expectProblem(baseChange, 409, "CONFLICT").detail).toBe(
      `pricelist ${base.id} is the base of pricelists ${a.id}, ${b.id}; its currency cannot change while they derive from it`,
    );
    const baseKind = await patchList(base.id, { kind: "FLOOR" });
    expect(expectProblem(baseKind, 409, "CONFLICT").detail).toBe(
      `pricelist ${base.id} is the base of pricelists ${a.id}, ${b.id}; its kind cannot change while they derive from it`,
    );
    // Moving the whole family together works: the derived lists let go first.
    await patchList(a.id, { derivation: null });
    await patchList(b.id, { derivation: null });
    expect((await patchList(base.id, { currency: "USD" })).body.currency).toBe("USD");
  });

  it("accepts a chain of 3 steps and refuses a 4th and a cycle, naming the chain", async () => {
    const d = await createPricelist();
    const c = await derived(d.id);
    const b = await derived(c.id);
    const a = await derived(b.id); // a → b → c → d: 3 steps
    expect(a.derivation.basePricelistId).toBe(b.id);

    const onTop = await api("POST", PL, {
      body: { name: "x", currency: "EUR", derivation: { basePricelistId: a.id, adjustmentBp: 0 } },
    });
    expect(expectProblem(onTop, 409, "CONFLICT").detail).toBe(
      `the pricelist deriving from pricelist ${a.id} makes a chain of 4 steps, more than the 3 allowed: ` +
        `new → ${a.id} → ${b.id} → ${c.id} → ${d.id} (each pricelist → its base)`,
    );
    const e = await createPricelist();
    const below = await patchList(d.id, { derivation: { basePricelistId: e.id, adjustmentBp: 0 } });
    expect(expectProblem(below, 409, "CONFLICT").detail).toBe(
      `pricelist ${d.id} deriving from pricelist ${e.id} makes a chain of 4 steps, more than the 3 allowed: ` +
        `${a.id} → ${b.id} → ${c.id} → ${d.id} → ${e.id} (each pricelist → its base)`,
    );
    const cycle = await patchList(d.id, { derivation: { basePricelistId: b.id, adjustmentBp: 0 } });
    expect(expectProblem(cycle, 409, "CONFLICT").detail).toBe(
      `pricelist ${d.id} cannot derive from pricelist ${b.id}: that makes a cycle ` +
        `${d.id} → ${b.id} → ${c.id} → ${d.id} (each pricelist → its base)`,
    );
    expect((await api("GET", `${PL}/${d.id}`)).body.derivation).toBeNull();
  });

  it("re-checks the rule inside the write: a change that raced past the read writes nothing", async () => {
    const db = createDb(env.DB as never, new DbMeter());
    const c = await createPricelist();
    const b = await derived(c.id);
    const a = await derived(b.id);
    const fits = async (
      self: number | null,
      base: number,
      steps = 3,
      kind: "SALES" | "COST" = "SALES",
    ) =>
      (
        await db.all<{ ok: number }>(sql`select ${derivationFits(self, base, steps, kind)} as ok`)
      )[0]!.ok;
    expect(await fits(null, a.id)).toBe(1); // new → a → b → c
    expect(await fits(null, a.id, 2)).toBe(0);
    expect(await fits(c.id, a.id)).toBe(0); // a cycle
    const floor = await createPricelist({ kind: "FLOOR" });
    expect(await fits(null, floor.id)).toBe(0);
    // A FLOOR list's base is a COST list (docs/pricing-rules.md §24), and nothing else.
    const cost = await createPricelist({ kind: "COST" });
    expect(await fits(null, cost.id, 3, "COST")).toBe(1);
    expect(await fits(null, cost.id, 3, "SALES")).toBe(0);
    expect(await fits(null, c.id, 3, "COST")).toBe(0);
  });
});
