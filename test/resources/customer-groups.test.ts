import { describe, expect, it } from "vitest";
import { createCustomerGroup } from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ONE_QUERY = /^db;desc="1 query";dur=\d+(\.\d)?$/;

describe("customer groups: create, read, update", () => {
  it("creates a group (description null by default) and reads it back in one round trip", async () => {
    const code = uid("RESELLER");
    const res = await api("POST", "/v1/api/customer-group", {
      body: { code, name: "Resellers" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      code,
      name: "Resellers",
      description: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const read = await api("GET", `/v1/api/customer-group/${code}`, { key: KEYS.read });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect(read.headers.get("server-timing")).toMatch(ONE_QUERY);
  });

  it("stores a description and a trimmed name", async () => {
    const code = uid("G");
    const res = await api("POST", "/v1/api/customer-group", {
      body: { code, name: " Wholesale ", description: "Registered wholesalers" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      code,
      name: "Wholesale",
      description: "Registered wholesalers",
    });
  });

  it("updates name, description and code (PATCH, seed endpoint 9)", async () => {
    const g = await createCustomerGroup({ description: "old" });
    const res = await api("PATCH", `/v1/api/customer-group/${g.code}`, {
      body: { name: "Renamed", description: "new text" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...g,
      name: "Renamed",
      description: "new text",
      updatedAt: expect.stringMatching(ISO),
    });
    expect(res.body.updatedAt >= g.updatedAt).toBe(true);
    expect(res.headers.get("server-timing")).toMatch(ONE_QUERY);

    const cleared = await api("PATCH", `/v1/api/customer-group/${g.code}`, {
      body: { description: null },
    });
    expect(cleared.body).toMatchObject({ id: g.id, name: "Renamed", description: null });

    const code = uid("G2");
    const recoded = await api("PATCH", `/v1/api/customer-group/${g.code}`, { body: { code } });
    expect(recoded.status).toBe(200);
    expect(recoded.body).toMatchObject({ id: g.id, code, name: "Renamed", description: null });
    expectProblem(await api("GET", `/v1/api/customer-group/${g.code}`), 404, "NOT_FOUND");
    expect((await api("GET", `/v1/api/customer-group/${code}`)).body).toEqual(recoded.body);
  });

  it("answers 404 for an unknown group", async () => {
    const get = await api("GET", "/v1/api/customer-group/NOPE-404");
    expect(expectProblem(get, 404, "NOT_FOUND").detail).toBe("customer group NOPE-404 not found");
    const patch = await api("PATCH", "/v1/api/customer-group/NOPE-404", { body: { name: "x" } });
    expect(expectProblem(patch, 404, "NOT_FOUND").detail).toBe("customer group NOPE-404 not found");
  });

  it("refuses a duplicate code with 409 on create and on rename", async () => {
    const a = await createCustomerGroup();
    const b = await createCustomerGroup();
    const dup = await api("POST", "/v1/api/customer-group", {
      body: { code: a.code, name: "Again" },
    });
    expect(expectProblem(dup, 409, "CONFLICT").detail).toBe(
      `customer group code ${a.code} already exists`,
    );
    const rename = await api("PATCH", `/v1/api/customer-group/${b.code}`, {
      body: { code: a.code },
    });
    expect(expectProblem(rename, 409, "CONFLICT").detail).toContain(a.code);
    expect((await api("GET", `/v1/api/customer-group/${b.code}`)).body).toEqual(b);
  });

  it("validates bodies and the path code, naming every field", async () => {
    const bad = await api("POST", "/v1/api/customer-group", {
      body: { code: "no spaces", name: "", description: 5, members: [] },
    });
    expect(issuePaths(bad).sort()).toEqual([
      "body.code",
      "body.description",
      "body.members",
      "body.name",
    ]);
    expect(issuePaths(await api("POST", "/v1/api/customer-group", { body: {} })).sort()).toEqual([
      "body.code",
      "body.name",
    ]);
    expect(
      issuePaths(
        await api("POST", "/v1/api/customer-group", {
          body: { code: uid("G"), name: "x", description: "d".repeat(1001) },
        }),
      ),
    ).toEqual(["body.description"]);

    const g = await createCustomerGroup();
    const patch = await api("PATCH", `/v1/api/customer-group/${g.code}`, {
      body: { code: "a/b", name: "  ", description: [], id: 1 },
    });
    expect(issuePaths(patch).sort()).toEqual([
      "body.code",
      "body.description",
      "body.id",
      "body.name",
    ]);
    expect(issuePaths(await api("GET", `/v1/api/customer-group/${"x".repeat(65)}`))).toEqual([
      "path.code",
    ]);
    expect((await api("GET", `/v1/api/customer-group/${g.code}`)).body).toEqual(g);
  });

  it("needs a key (401) and an admin key for writes (403)", async () => {
    const g = await createCustomerGroup();
    expectProblem(await api("GET", "/v1/api/customer-group", { key: null }), 401, "UNAUTHORIZED");
    expectProblem(
      await api("GET", `/v1/api/customer-group/${g.code}`, { key: null }),
      401,
      "UNAUTHORIZED",
    );
    expectProblem(
      await api("POST", "/v1/api/customer-group", {
        key: KEYS.read,
        body: { code: uid("G"), name: "x" },
      }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("PATCH", `/v1/api/customer-group/${g.code}`, {
        key: KEYS.read,
        body: { name: "x" },
      }),
      403,
      "FORBIDDEN",
    );
    expect((await api("GET", `/v1/api/customer-group/${g.code}`)).body).toEqual(g);
  });
});

describe("customer groups: list", () => {
  it("pages, sorts by id, code and name (case-insensitive) and searches code and name", async () => {
    const tag = uid("LST");
    const kappa = await createCustomerGroup({ code: `${tag}-b`, name: "Kappa" });
    const lambda = await createCustomerGroup({
      code: `${tag}-C`,
      name: "lambda",
      description: "d",
    });
    const mu = await createCustomerGroup({ code: `${tag}-A`, name: "Mu" });

    const res = await api("GET", `/v1/api/customer-group?search=${tag}&sortBy=name:ASC`, {
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
        current: `http://pricing.test/v1/api/customer-group?page=1&limit=20&sortBy=name:ASC&search=${tag}`,
      },
    });

    const codes = async (query: string) =>
      (await api("GET", `/v1/api/customer-group?search=${tag}&${query}`)).body.data.map(
        (g: any) => g.code,
      );
    expect(await codes("sortBy=name:DESC")).toEqual([mu.code, lambda.code, kappa.code]);
    expect(await codes("sortBy=code:ASC")).toEqual([mu.code, kappa.code, lambda.code]);
    expect(await codes("sortBy=code:desc")).toEqual([lambda.code, kappa.code, mu.code]);
    expect(await codes("sortBy=id:ASC")).toEqual([kappa.code, lambda.code, mu.code]);
    expect(await codes("")).toEqual([mu.code, lambda.code, kappa.code]);

    const byName = await api("GET", `/v1/api/customer-group?search=LAMBDA&searchBy=name`);
    expect(byName.body.data).toContainEqual(lambda);
    const byCode = await api("GET", `/v1/api/customer-group?search=${tag}-a&searchBy=code`);
    expect(byCode.body.data).toEqual([mu]);
    expect(byCode.body.meta.searchBy).toEqual(["code"]);

    const page = await api(
      "GET",
      `/v1/api/customer-group?search=${tag}&sortBy=code:ASC&limit=2&page=1`,
    );
    expect(page.body.data).toEqual([mu, kappa]);
    expect(page.body.meta).toMatchObject({ itemsPerPage: 2, totalItems: 3, totalPages: 2 });
    expect(page.body.links.next).toBe(
      `http://pricing.test/v1/api/customer-group?page=2&limit=2&sortBy=code:ASC&search=${tag}`,
    );
  });

  it("rejects unknown sort, search and filter fields with 400", async () => {
    expect(issuePaths(await api("GET", "/v1/api/customer-group?sortBy=createdAt:ASC"))).toEqual([
      "query.sortBy",
    ]);
    expect(
      issuePaths(await api("GET", "/v1/api/customer-group?search=x&searchBy=description")),
    ).toEqual(["query.searchBy"]);
    expect(issuePaths(await api("GET", "/v1/api/customer-group?filter.code=x"))).toEqual([
      "query.filter.code",
    ]);
  });
});
