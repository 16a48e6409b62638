import { describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  createPromotion,
  createTradeCondition,
  setPrimaryPricelist,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";
import { countRows } from "../shared/reads";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ONE_QUERY = /^db;desc="1 query";dur=\d+(\.\d)?$/;

describe("channels: create, read, update", () => {
  it("creates a channel with isActive defaulting to true, and reads it back in one round trip", async () => {
    const code = uid("WEB");
    const res = await api("POST", "/v1/api/channel", { body: { code, name: "Web shop" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      code,
      name: "Web shop",
      isActive: true,
      roundingMode: "HALF_UP",
      primaryPricelistId: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });

    const read = await api("GET", `/v1/api/channel/${code}`, { key: KEYS.read });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect(read.headers.get("server-timing")).toMatch(ONE_QUERY);
  });

  it("creates an inactive channel and trims the name", async () => {
    const code = uid("POS");
    const res = await api("POST", "/v1/api/channel", {
      body: { code, name: "  Store  ", isActive: false },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code, name: "Store", isActive: false });
  });

  it("shows the primary pricelist id (the assignment marked primary, not the others)", async () => {
    const ch = await createChannel();
    const other = await createPricelist();
    const primary = await createPricelist();
    await assignPricelistToChannel(ch.code, other.id);
    expect((await api("GET", `/v1/api/channel/${ch.code}`)).body.primaryPricelistId).toBeNull();
    await setPrimaryPricelist(ch.code, primary.id);
    const read = await api("GET", `/v1/api/channel/${ch.code}`);
    expect(read.body).toEqual({ ...ch, primaryPricelistId: primary.id });
    expect(read.headers.get("server-timing")).toMatch(ONE_QUERY);
  });

  it("updates name, isActive and code (PATCH), keeping the primary pricelist", async () => {
    const ch = await createChannel({ name: "Old" });
    const pl = await createPricelist();
    await setPrimaryPricelist(ch.code, pl.id);

    const renamed = await api("PATCH", `/v1/api/channel/${ch.code}`, {
      body: { name: "New name", isActive: false },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      ...ch,
      name: "New name",
      isActive: false,
      primaryPricelistId: pl.id,
      updatedAt: expect.stringMatching(ISO),
    });
    expect(renamed.body.updatedAt >= ch.updatedAt).toBe(true);
    expect(renamed.headers.get("server-timing")).toMatch(ONE_QUERY);

    const code = uid("NEW");
    const recoded = await api("PATCH", `/v1/api/channel/${ch.code}`, { body: { code } });
    expect(recoded.status).toBe(200);
    expect(recoded.body).toMatchObject({ id: ch.id, code, name: "New name", isActive: false });
    expectProblem(await api("GET", `/v1/api/channel/${ch.code}`), 404, "NOT_FOUND");
    expect((await api("GET", `/v1/api/channel/${code}`)).body).toEqual(recoded.body);

    const empty = await api("PATCH", `/v1/api/channel/${code}`, { body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ id: ch.id, code, name: "New name", isActive: false });
  });

  it("answers 404 for unknown channels", async () => {
    const get = expectProblem(await api("GET", "/v1/api/channel/NOPE-404"), 404, "NOT_FOUND");
    expect(get.detail).toBe("channel NOPE-404 not found");
    const patch = await api("PATCH", "/v1/api/channel/NOPE-404", { body: { name: "x" } });
    expect(expectProblem(patch, 404, "NOT_FOUND").detail).toBe("channel NOPE-404 not found");
    expectProblem(await api("DELETE", "/v1/api/channel/NOPE-404"), 404, "NOT_FOUND");
  });

  it("refuses a duplicate code with 409 on create and on rename", async () => {
    const a = await createChannel();
    const b = await createChannel();
    const dup = await api("POST", "/v1/api/channel", { body: { code: a.code, name: "Again" } });
    expect(expectProblem(dup, 409, "CONFLICT").detail).toBe(
      `channel code ${a.code} already exists`,
    );
    const rename = await api("PATCH", `/v1/api/channel/${b.code}`, { body: { code: a.code } });
    expect(expectProblem(rename, 409, "CONFLICT").detail).toContain(a.code);
    expect((await api("GET", `/v1/api/channel/${b.code}`)).body).toEqual(b);
  });

  it("validates bodies and the path code, naming every field", async () => {
    const bad = await api("POST", "/v1/api/channel", {
      body: { code: "bad code!", name: "", isActive: "yes", extra: 1 },
    });
    expect(issuePaths(bad).sort()).toEqual([
      "body.code",
      "body.extra",
      "body.isActive",
      "body.name",
    ]);
    expect(issuePaths(await api("POST", "/v1/api/channel", { body: {} })).sort()).toEqual([
      "body.code",
      "body.name",
    ]);
    expect(
      issuePaths(await api("POST", "/v1/api/channel", { body: { code: 12, name: ["x"] } })).sort(),
    ).toEqual(["body.code", "body.name"]);
    expect(
      issuePaths(
        await api("POST", "/v1/api/channel", { body: { code: "x".repeat(65), name: "x" } }),
      ),
    ).toEqual(["body.code"]);

    const ch = await createChannel();
    const patch = await api("PATCH", `/v1/api/channel/${ch.code}`, {
      body: { code: "", name: "   ", isActive: 1, primaryPricelistId: 3 },
    });
    expect(issuePaths(patch).sort()).toEqual([
      "body.code",
      "body.isActive",
      "body.name",
      "body.primaryPricelistId",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/channel/bad%20code"))).toEqual(["path.code"]);
    expect(issuePaths(await api("DELETE", `/v1/api/channel/${"x".repeat(65)}`))).toEqual([
      "path.code",
    ]);
    expect((await api("GET", `/v1/api/channel/${ch.code}`)).body).toEqual(ch);
  });

  it("needs a key (401) and an admin key for writes (403)", async () => {
    const ch = await createChannel();
    expectProblem(await api("GET", "/v1/api/channel", { key: null }), 401, "UNAUTHORIZED");
    expectProblem(
      await api("GET", `/v1/api/channel/${ch.code}`, { key: null }),
      401,
      "UNAUTHORIZED",
    );
    const body = { code: uid("CH"), name: "x" };
    expectProblem(await api("POST", "/v1/api/channel", { key: null, body }), 401, "UNAUTHORIZED");
    expectProblem(await api("POST", "/v1/api/channel", { key: KEYS.read, body }), 403, "FORBIDDEN");
    expectProblem(
      await api("PATCH", `/v1/api/channel/${ch.code}`, { key: KEYS.read, body: { name: "x" } }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("DELETE", `/v1/api/channel/${ch.code}`, { key: KEYS.read }),
      403,
      "FORBIDDEN",
    );
    expect((await api("GET", `/v1/api/channel/${ch.code}`)).body).toEqual(ch);
  });
});

describe("channels: delete", () => {
  it("deletes a channel with its memberships and pricelist assignments (204)", async () => {
    const ch = await createChannel();
    const keep = await createChannel();
    const group = await createCustomerGroup();
    const customer = await createCustomer({ channelCodes: [ch.code, keep.code] });
    const linked = await api("POST", `/v1/api/channel/${ch.code}/customer-group`, {
      body: { customerGroupCodes: [group.code] },
    });
    expect(linked.body.assigned).toEqual([group.code]);
    const pl = await createPricelist();
    await setPrimaryPricelist(ch.code, pl.id);

    const res = await api("DELETE", `/v1/api/channel/${ch.code}`);
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
    expectProblem(await api("GET", `/v1/api/channel/${ch.code}`), 404, "NOT_FOUND");
    expectProblem(await api("DELETE", `/v1/api/channel/${ch.code}`), 404, "NOT_FOUND");

    expect((await api("GET", `/v1/api/customer/${customer.code}`)).body.channelCodes).toEqual([
      keep.code,
    ]);
    expect(await countRows("channel_customer_groups", "channel_id", ch.id)).toBe(0);
    expect(await countRows("channel_pricelists", "channel_id", ch.id)).toBe(0);
    // The pricelist itself stays.
    expect((await api("GET", `/v1/api/pricelist/${pl.id}`)).status).toBe(200);
    expect((await api("GET", `/v1/api/customer-group/${group.code}`)).status).toBe(200);
  });

  it("refuses (409) to delete a channel a trade condition names", async () => {
    const ch = await createChannel();
    const tc = await createTradeCondition({ scope: "CHANNEL", channelCodes: [ch.code] });
    const res = await api("DELETE", `/v1/api/channel/${ch.code}`);
    expect(expectProblem(res, 409, "IN_USE").detail).toBe(
      `channel ${ch.code} is still named by 1 trade condition (${tc.id}); remove it from them first`,
    );
    expect((await api("GET", `/v1/api/channel/${ch.code}`)).body).toEqual(ch);
  });

  it("refuses (409) to delete a channel a promotion names", async () => {
    const ch = await createChannel();
    await createPromotion({ channelCodes: [ch.code] });
    expectProblem(await api("DELETE", `/v1/api/channel/${ch.code}`), 409, "IN_USE");
    expect((await api("GET", `/v1/api/channel/${ch.code}`)).body).toEqual(ch);
  });
});

describe("channels: list", () => {
  it("pages, sorts by every sortable field and searches name and code", async () => {
    const tag = uid("LST");
    // Names in mixed case: text sorts case-insensitively.
    const kappa = await createChannel({ code: `${tag}-B`, name: "Kappa", isActive: true });
    const lambda = await createChannel({ code: `${tag}-c`, name: "lambda", isActive: false });
    const mu = await createChannel({ code: `${tag}-A`, name: "Mu", isActive: true });
    const pl = await createPricelist();
    await setPrimaryPricelist(lambda.code, pl.id);
    const withPrimary = { ...lambda, primaryPricelistId: pl.id };

    const res = await api("GET", `/v1/api/channel?search=${tag}&sortBy=name:asc`, {
      key: KEYS.read,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(ONE_QUERY);
    expect(res.body).toEqual({
      data: [kappa, withPrimary, mu],
      meta: {
        itemsPerPage: 20,
        totalItems: 3,
        currentPage: 1,
        totalPages: 1,
        sortBy: [["name", "ASC"]],
        search: tag,
        searchBy: ["name", "code"],
      },
      links: {
        current: `http://pricing.test/v1/api/channel?page=1&limit=20&sortBy=name:ASC&search=${tag}`,
      },
    });

    const codes = async (query: string) =>
      (await api("GET", `/v1/api/channel?search=${tag}&${query}`)).body.data.map(
        (c: any) => c.code,
      );
    expect(await codes("sortBy=name:DESC")).toEqual([mu.code, lambda.code, kappa.code]);
    expect(await codes("sortBy=code:ASC")).toEqual([mu.code, kappa.code, lambda.code]);
    expect(await codes("sortBy=code:DESC")).toEqual([lambda.code, kappa.code, mu.code]);
    expect(await codes("sortBy=id:ASC")).toEqual([kappa.code, lambda.code, mu.code]);
    expect(await codes("")).toEqual([mu.code, lambda.code, kappa.code]);
    expect(await codes("sortBy=isActive:ASC")).toEqual([lambda.code, kappa.code, mu.code]);
    expect(await codes("sortBy=isActive:DESC")).toEqual([mu.code, kappa.code, lambda.code]);
    expect(await codes("sortBy=createdAt:ASC")).toEqual([kappa.code, lambda.code, mu.code]);
    expect(await codes("sortBy=createdAt:DESC")).toEqual([mu.code, lambda.code, kappa.code]);

    // Search is case-insensitive and restricted by searchBy.
    const byName = await api("GET", `/v1/api/channel?search=LAMBDA&searchBy=name`);
    expect(byName.body.data).toContainEqual(withPrimary);
    const byCode = await api(
      "GET",
      `/v1/api/channel?search=${tag.toLowerCase()}-a&searchBy=code&sortBy=id:ASC`,
    );
    expect(byCode.body.data).toEqual([mu]);
    expect(byCode.body.meta.searchBy).toEqual(["code"]);
    const noMatch = await api("GET", `/v1/api/channel?search=${tag}&searchBy=name`);
    expect(noMatch.body.data).toEqual([]);
    expect(noMatch.body.meta.totalPages).toBe(0);

    const page2 = await api("GET", `/v1/api/channel?search=${tag}&sortBy=name:ASC&limit=2&page=2`);
    expect(page2.body.data).toEqual([mu]);
    expect(page2.body.meta).toMatchObject({ itemsPerPage: 2, totalItems: 3, currentPage: 2 });
    expect(page2.body.links.previous).toBe(
      `http://pricing.test/v1/api/channel?page=1&limit=2&sortBy=name:ASC&search=${tag}`,
    );
  });

  it("rejects unknown sort, search and filter fields with 400", async () => {
    expect(issuePaths(await api("GET", "/v1/api/channel?sortBy=updatedAt:ASC"))).toEqual([
      "query.sortBy",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/channel?sortBy=name:UP"))).toEqual([
      "query.sortBy",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/channel?search=x&searchBy=id"))).toEqual([
      "query.searchBy",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/channel?filter.isActive=true"))).toEqual([
      "query.filter.isActive",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/channel?select=code"))).toEqual(["query.select"]);
  });
});
