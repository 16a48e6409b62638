import { describe, expect, it } from "vitest";
import { createCustomer, createIndividualPricelist, createPricelist } from "./factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "./helpers";

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
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
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
    expect(issuePaths(await api("GET", "/v1/api/pricelist?search=x"))).toEqual(["query.search"]);
    expect(sorted.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
  });
});
