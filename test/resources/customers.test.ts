import { describe, expect, it } from "vitest";
import {
  assignPricelistToCustomer,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
  createProduct,
  setPricelistStatus,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";
import { countRows, getPricelist } from "../shared/reads";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ONE_QUERY = /^db;desc="1 query";dur=\d+(\.\d)?$/;
const TWO_QUERIES = /^db;desc="2 queries";dur=\d+(\.\d)?$/;
const DAY = 24 * 60 * 60 * 1000;

describe("customers: create", () => {
  it("creates a customer without memberships in one round trip", async () => {
    const code = uid("C");
    const res = await api("POST", "/v1/api/customer", { body: { code, name: "Muster GmbH" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      code,
      name: "Muster GmbH",
      customerGroupCodes: [],
      channelCodes: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(res.headers.get("server-timing")).toMatch(ONE_QUERY);
  });

  it("creates a customer in groups and channels (sorted, duplicates once): one read, one batch", async () => {
    const g1 = await createCustomerGroup({ code: uid("GB") });
    const g2 = await createCustomerGroup({ code: uid("GA") });
    const ch = await createChannel();
    const code = uid("C");
    const res = await api("POST", "/v1/api/customer", {
      body: {
        code,
        name: "Member",
        customerGroupCodes: [g1.code, g2.code, g1.code],
        channelCodes: [ch.code],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      code,
      name: "Member",
      customerGroupCodes: [g1.code, g2.code].sort(),
      channelCodes: [ch.code],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(res.headers.get("server-timing")).toMatch(TWO_QUERIES);
    const read = await api("GET", `/v1/api/customer/${code}`);
    expect(read.body).toEqual({ ...res.body, pricelists: [], primaryPricelist: null });
  });

  it("refuses unknown group and channel codes with 400 naming them, writing nothing", async () => {
    const g = await createCustomerGroup();
    const code = uid("C");
    const res = await api("POST", "/v1/api/customer", {
      body: {
        code,
        name: "Nobody",
        customerGroupCodes: [g.code, "NO-GROUP-1", "NO-GROUP-2"],
        channelCodes: ["NO-CHANNEL"],
      },
    });
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors).toEqual([
      {
        path: "body.customerGroupCodes",
        message: "unknown customer group codes: NO-GROUP-1, NO-GROUP-2",
      },
      { path: "body.channelCodes", message: "unknown channel codes: NO-CHANNEL" },
    ]);
    expectProblem(await api("GET", `/v1/api/customer/${code}`), 404, "NOT_FOUND");
    expect(await countRows("customer_group_members", "customer_group_id", g.id)).toBe(0);

    const one = await api("POST", "/v1/api/customer", {
      body: { code, name: "Nobody", channelCodes: ["NO-CHANNEL"] },
    });
    expect(issuePaths(one)).toEqual(["body.channelCodes"]);
  });

  it("refuses a duplicate code with 409, with and without memberships", async () => {
    const c = await createCustomer();
    const g = await createCustomerGroup();
    const dup = await api("POST", "/v1/api/customer", { body: { code: c.code, name: "Again" } });
    expect(expectProblem(dup, 409, "CONFLICT").detail).toBe(
      `customer code ${c.code} already exists`,
    );
    const withGroups = await api("POST", "/v1/api/customer", {
      body: { code: c.code, name: "Again", customerGroupCodes: [g.code] },
    });
    expectProblem(withGroups, 409, "CONFLICT");
    expect((await api("GET", `/v1/api/customer/${c.code}`)).body.customerGroupCodes).toEqual([]);
  });

  it("validates the body, naming every field", async () => {
    const bad = await api("POST", "/v1/api/customer", {
      body: {
        code: "bad code",
        name: "",
        customerGroupCodes: "G1",
        channelCodes: ["ok", "not ok"],
        pricelists: [],
      },
    });
    expect(issuePaths(bad).sort()).toEqual([
      "body.channelCodes.1",
      "body.code",
      "body.customerGroupCodes",
      "body.name",
      "body.pricelists",
    ]);
    expect(issuePaths(await api("POST", "/v1/api/customer", { body: {} })).sort()).toEqual([
      "body.code",
      "body.name",
    ]);
    expect(
      issuePaths(
        await api("POST", "/v1/api/customer", {
          body: { code: 1, name: true, channelCodes: [1] },
        }),
      ).sort(),
    ).toEqual(["body.channelCodes.0", "body.code", "body.name"]);
    const tooMany = Array.from({ length: 1001 }, (_, i) => `G-${i}`);
    expect(
      issuePaths(
        await api("POST", "/v1/api/customer", {
          body: { code: uid("C"), name: "x", customerGroupCodes: tooMany },
        }),
      ),
    ).toEqual(["body.customerGroupCodes"]);
  });
});

describe("customers: update", () => {
  it("updates the name in one round trip, keeping the memberships", async () => {
    const g = await createCustomerGroup();
    const c = await createCustomer({ customerGroupCodes: [g.code] });
    const res = await api("PATCH", `/v1/api/customer/${c.code}`, { body: { name: "Renamed" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...c,
      name: "Renamed",
      updatedAt: expect.stringMatching(ISO),
    });
    expect(res.body.updatedAt >= c.updatedAt).toBe(true);
    expect(res.headers.get("server-timing")).toMatch(ONE_QUERY);
  });

  it("replaces the given membership sets atomically, leaving the others", async () => {
    const [ga, gb, gc] = [
      await createCustomerGroup(),
      await createCustomerGroup(),
      await createCustomerGroup(),
    ];
    const [c1, c2] = [await createChannel(), await createChannel()];
    const c = await createCustomer({
      customerGroupCodes: [ga.code, gb.code],
      channelCodes: [c1.code],
    });

    const groups = await api("PATCH", `/v1/api/customer/${c.code}`, {
      body: { customerGroupCodes: [gc.code, gb.code] },
    });
    expect(groups.status).toBe(200);
    expect(groups.body).toEqual({
      ...c,
      customerGroupCodes: [gb.code, gc.code].sort(),
      channelCodes: [c1.code],
      updatedAt: expect.stringMatching(ISO),
    });
    expect(groups.headers.get("server-timing")).toMatch(TWO_QUERIES);

    const code = uid("C");
    const all = await api("PATCH", `/v1/api/customer/${c.code}`, {
      body: { code, name: "Both", customerGroupCodes: [], channelCodes: [c2.code, c1.code] },
    });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      id: c.id,
      code,
      name: "Both",
      customerGroupCodes: [],
      channelCodes: [c1.code, c2.code].sort(),
    });
    expectProblem(await api("GET", `/v1/api/customer/${c.code}`), 404, "NOT_FOUND");
    const read = await api("GET", `/v1/api/customer/${code}`);
    expect(read.body).toEqual({ ...all.body, pricelists: [], primaryPricelist: null });
  });

  it("refuses unknown codes with 400 and changes nothing", async () => {
    const g = await createCustomerGroup();
    const c = await createCustomer({ customerGroupCodes: [g.code] });
    const res = await api("PATCH", `/v1/api/customer/${c.code}`, {
      body: { name: "Changed", customerGroupCodes: ["NO-SUCH-GROUP"], channelCodes: ["NOPE"] },
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.customerGroupCodes", message: "unknown customer group codes: NO-SUCH-GROUP" },
      { path: "body.channelCodes", message: "unknown channel codes: NOPE" },
    ]);
    const read = await api("GET", `/v1/api/customer/${c.code}`);
    expect(read.body).toMatchObject({ name: "Customer", customerGroupCodes: [g.code] });
    expect(read.body.updatedAt).toBe(c.updatedAt);
  });

  it("answers 404 for an unknown customer, with and without code lists", async () => {
    const g = await createCustomerGroup();
    const plain = await api("PATCH", "/v1/api/customer/NOPE-404", { body: { name: "x" } });
    expect(expectProblem(plain, 404, "NOT_FOUND").detail).toBe("customer NOPE-404 not found");
    const lists = await api("PATCH", "/v1/api/customer/NOPE-404", {
      body: { customerGroupCodes: [g.code] },
    });
    expectProblem(lists, 404, "NOT_FOUND");
    // 404 wins over unknown codes: the customer is what the path names.
    const both = await api("PATCH", "/v1/api/customer/NOPE-404", {
      body: { channelCodes: ["NOPE"] },
    });
    expectProblem(both, 404, "NOT_FOUND");
  });

  it("refuses a rename to a taken code with 409, with and without code lists", async () => {
    const a = await createCustomer();
    const g = await createCustomerGroup();
    const b = await createCustomer();
    const plain = await api("PATCH", `/v1/api/customer/${b.code}`, { body: { code: a.code } });
    expect(expectProblem(plain, 409, "CONFLICT").detail).toBe(
      `customer code ${a.code} already exists`,
    );
    const lists = await api("PATCH", `/v1/api/customer/${b.code}`, {
      body: { code: a.code, customerGroupCodes: [g.code] },
    });
    expectProblem(lists, 409, "CONFLICT");
    // The batch failed as a whole: the membership was not written either.
    const read = await api("GET", `/v1/api/customer/${b.code}`);
    expect(read.body).toMatchObject({ code: b.code, customerGroupCodes: [] });
  });

  it("validates the body and the path code", async () => {
    const c = await createCustomer();
    const res = await api("PATCH", `/v1/api/customer/${c.code}`, {
      body: { code: "", name: " ", channelCodes: null, customerGroupCodes: [""], id: 2 },
    });
    expect(issuePaths(res).sort()).toEqual([
      "body.channelCodes",
      "body.code",
      "body.customerGroupCodes.0",
      "body.id",
      "body.name",
    ]);
    expect(
      issuePaths(await api("PATCH", "/v1/api/customer/a%2Fb", { body: { name: "x" } })),
    ).toEqual(["path.code"]);
  });
});

describe("customers: get with pricelists (seed endpoint 17)", () => {
  it("has no pricelists and a null primary pricelist by default; one round trip", async () => {
    const c = await createCustomer();
    const res = await api("GET", `/v1/api/customer/${c.code}`, { key: KEYS.read });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...c, pricelists: [], primaryPricelist: null });
    expect(res.headers.get("server-timing")).toMatch(ONE_QUERY);
  });

  it("lists owned INDIVIDUAL and assigned GENERAL pricelists in pricing order; the primary is the first ACTIVE valid one", async () => {
    const c = await createCustomer();
    const other = await createCustomer();
    const draftOwn = await createIndividualPricelist(c.code);
    const activeOwn = await setPricelistStatus(
      (await createIndividualPricelist(c.code)).id,
      "ACTIVE",
    );
    const foreign = await createIndividualPricelist(other.code); // someone else's
    await setPricelistStatus(foreign.id, "ACTIVE");
    const low = await createPricelist({ status: "ACTIVE", priority: 5 });
    const high = await createPricelist({ status: "ACTIVE", priority: 10 });
    const expired = await createPricelist({
      status: "ACTIVE",
      priority: 100,
      validFrom: "2020-01-01T00:00:00Z",
      validTo: new Date(Date.now() - DAY).toISOString(),
    });
    await createPricelist({ status: "ACTIVE", priority: 1000 }); // not assigned
    for (const pl of [low, high, expired]) await assignPricelistToCustomer(c.code, pl.id);
    await assignPricelistToCustomer(other.code, low.id);

    const res = await api("GET", `/v1/api/customer/${c.code}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(ONE_QUERY);
    expect(res.body).toEqual({
      ...c,
      pricelists: [
        await getPricelist(draftOwn.id),
        await getPricelist(activeOwn.id),
        await getPricelist(expired.id),
        await getPricelist(high.id),
        await getPricelist(low.id),
      ],
      primaryPricelist: await getPricelist(activeOwn.id),
    });
    expect(res.body.pricelists[0]).toMatchObject({
      scope: "INDIVIDUAL",
      status: "DRAFT",
      customerCode: c.code,
    });
  });

  it("skips expired, not yet valid and inactive pricelists when choosing the primary", async () => {
    const c = await createCustomer();
    const expired = await createPricelist({
      status: "ACTIVE",
      priority: 100,
      validTo: new Date(Date.now() - DAY).toISOString(),
    });
    const future = await createPricelist({
      status: "ACTIVE",
      priority: 50,
      validFrom: new Date(Date.now() + DAY).toISOString(),
    });
    const draft = await createPricelist({ priority: 40, status: "DRAFT" });
    const windowed = await createPricelist({
      status: "ACTIVE",
      priority: 10,
      validFrom: new Date(Date.now() - DAY).toISOString(),
      validTo: new Date(Date.now() + DAY).toISOString(),
    });
    const sameA = await createPricelist({ status: "ACTIVE", priority: 10 });
    for (const pl of [sameA, windowed, draft, future, expired])
      await assignPricelistToCustomer(c.code, pl.id);

    const res = await api("GET", `/v1/api/customer/${c.code}`);
    expect(res.body.pricelists.map((p: any) => p.id)).toEqual([
      expired.id,
      future.id,
      draft.id,
      windowed.id,
      sameA.id,
    ]);
    expect(res.body.primaryPricelist).toEqual(await getPricelist(windowed.id));

    const none = await createCustomer();
    await assignPricelistToCustomer(none.code, expired.id);
    await assignPricelistToCustomer(none.code, draft.id);
    const noPrimary = await api("GET", `/v1/api/customer/${none.code}`);
    expect(noPrimary.body.pricelists).toHaveLength(2);
    expect(noPrimary.body.primaryPricelist).toBeNull();
  });

  it("answers 404 for an unknown customer and 400 for a malformed code", async () => {
    const res = await api("GET", "/v1/api/customer/NOPE-404");
    expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe("customer NOPE-404 not found");
    expect(issuePaths(await api("GET", `/v1/api/customer/${"c".repeat(65)}`))).toEqual([
      "path.code",
    ]);
  });
});

describe("customers: delete", () => {
  it("deletes the customer with its memberships, assignments and own INDIVIDUAL pricelists", async () => {
    const g = await createCustomerGroup();
    const ch = await createChannel();
    const c = await createCustomer({ customerGroupCodes: [g.code], channelCodes: [ch.code] });
    const stays = await createCustomer({ customerGroupCodes: [g.code], channelCodes: [ch.code] });
    const own = await createIndividualPricelist(c.code);
    const general = await createPricelist({ status: "ACTIVE" });
    await assignPricelistToCustomer(c.code, general.id);
    const product = await createProduct();
    const priced = await api("PUT", `/v1/api/pricelist/${own.id}/prices`, {
      body: { prices: [{ productCode: product.code, amount: 1000 }] },
    });
    expect(priced.status).toBe(200);

    const res = await api("DELETE", `/v1/api/customer/${c.code}`);
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
    expectProblem(await api("GET", `/v1/api/customer/${c.code}`), 404, "NOT_FOUND");
    expectProblem(await api("DELETE", `/v1/api/customer/${c.code}`), 404, "NOT_FOUND");

    // Its own pricelist (and its prices) went with it; the GENERAL one stays.
    expectProblem(await api("GET", `/v1/api/pricelist/${own.id}`), 404, "NOT_FOUND");
    expect(await countRows("pricelist_prices", "pricelist_id", own.id)).toBe(0);
    expect((await api("GET", `/v1/api/pricelist/${general.id}`)).status).toBe(200);
    expect(await countRows("customer_pricelists", "customer_id", c.id)).toBe(0);
    expect(await countRows("customer_group_members", "customer_id", c.id)).toBe(0);
    expect(await countRows("channel_customers", "customer_id", c.id)).toBe(0);
    // The group and channel keep their other members.
    expect(await countRows("customer_group_members", "customer_group_id", g.id)).toBe(1);
    expect((await api("GET", `/v1/api/customer/${stays.code}`)).body).toMatchObject({
      customerGroupCodes: [g.code],
      channelCodes: [ch.code],
    });
    expect((await api("GET", `/v1/api/product/${product.code}`)).status).toBe(200);
  });

  it("answers 404 for an unknown customer", async () => {
    const res = await api("DELETE", "/v1/api/customer/NOPE-404");
    expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe("customer NOPE-404 not found");
  });
});

describe("customers: auth", () => {
  it("needs a key (401) and an admin key for writes (403)", async () => {
    const c = await createCustomer();
    expectProblem(await api("GET", "/v1/api/customer", { key: null }), 401, "UNAUTHORIZED");
    expectProblem(
      await api("GET", `/v1/api/customer/${c.code}`, { key: null }),
      401,
      "UNAUTHORIZED",
    );
    expectProblem(
      await api("POST", "/v1/api/customer", {
        key: KEYS.read,
        body: { code: uid("C"), name: "x" },
      }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("PATCH", `/v1/api/customer/${c.code}`, { key: KEYS.read, body: { name: "x" } }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("DELETE", `/v1/api/customer/${c.code}`, { key: KEYS.read }),
      403,
      "FORBIDDEN",
    );
    expect((await api("GET", `/v1/api/customer/${c.code}`)).body).toMatchObject(c);
  });
});

describe("customers: list", () => {
  it("pages with memberships in one round trip, sorts by id, code and name, searches code and name", async () => {
    const tag = uid("LST");
    const g = await createCustomerGroup();
    const ch = await createChannel();
    const kappa = await createCustomer({ code: `${tag}-b`, name: "Kappa" });
    const lambda = await createCustomer({
      code: `${tag}-C`,
      name: "lambda",
      customerGroupCodes: [g.code],
      channelCodes: [ch.code],
    });
    const mu = await createCustomer({ code: `${tag}-A`, name: "Mu" });

    const res = await api("GET", `/v1/api/customer?search=${tag}&sortBy=name:ASC`, {
      key: KEYS.read,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(ONE_QUERY);
    expect(res.body).toEqual({
      data: [kappa, lambda, mu],
      meta: {
        itemsPerPage: 20,
        totalItems: 3,
        currentPage: 1,
        totalPages: 1,
        sortBy: [["name", "ASC"]],
        search: tag,
        searchBy: ["code", "name"],
      },
      links: {
        current: `http://pricing.test/v1/api/customer?page=1&limit=20&sortBy=name:ASC&search=${tag}`,
      },
    });
    expect(lambda).toMatchObject({ customerGroupCodes: [g.code], channelCodes: [ch.code] });

    const codes = async (query: string) =>
      (await api("GET", `/v1/api/customer?search=${tag}&${query}`)).body.data.map(
        (c: any) => c.code,
      );
    expect(await codes("sortBy=name:DESC")).toEqual([mu.code, lambda.code, kappa.code]);
    expect(await codes("sortBy=code:ASC")).toEqual([mu.code, kappa.code, lambda.code]);
    expect(await codes("sortBy=code:DESC")).toEqual([lambda.code, kappa.code, mu.code]);
    expect(await codes("sortBy=id:ASC")).toEqual([kappa.code, lambda.code, mu.code]);
    expect(await codes("")).toEqual([mu.code, lambda.code, kappa.code]);

    const byName = await api("GET", "/v1/api/customer?search=LAMBDA&searchBy=name");
    expect(byName.body.data).toContainEqual(lambda);
    const byCode = await api("GET", `/v1/api/customer?search=${tag}-a&searchBy=code`);
    expect(byCode.body.data).toEqual([mu]);

    const page = await api("GET", `/v1/api/customer?search=${tag}&sortBy=code:ASC&limit=2&page=2`);
    expect(page.body.data).toEqual([lambda]);
    expect(page.body.meta).toMatchObject({ itemsPerPage: 2, totalItems: 3, currentPage: 2 });
  });

  it("rejects unknown sort, search and filter fields with 400", async () => {
    expect(issuePaths(await api("GET", "/v1/api/customer?sortBy=createdAt:ASC"))).toEqual([
      "query.sortBy",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/customer?search=x&searchBy=channelCodes"))).toEqual(
      ["query.searchBy"],
    );
    expect(issuePaths(await api("GET", "/v1/api/customer?filter.code=x"))).toEqual([
      "query.filter.code",
    ]);
  });
});
