import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  assignPricelistToCustomer,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
  createProduct,
  setPricelistStatus,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, roundTrips, uid } from "../shared/helpers";
import { countRows } from "../shared/reads";
import { describeBulkAssign } from "../shared/bulk-assign";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The pricelist's groups, read straight from the link table. */
async function groupsOf(pricelistId: number) {
  const { results } = await env.DB.prepare(
    `select g.code from customer_group_pricelists l join customer_groups g on g.id = l.customer_group_id
     where l.pricelist_id = ? order by g.code`,
  )
    .bind(pricelistId)
    .all<{ code: string }>();
  return results.map((r) => r.code);
}

const assignPath = (id: number) => `/v1/api/pricelist/${id}/customer-groups`;
const unassignPath = (id: number) => `/v1/api/pricelist/${id}/customer-groups/unassign`;

/**
 * Links an INDIVIDUAL pricelist to its own customer in customer_pricelists. The API never writes
 * that row (assigning the owner's own list answers 201 and writes nothing), but SQL seeds
 * (scripts/lib/demo-sql.mjs) can; the delete and the customer list must still get it right.
 */
async function linkOwnerOutsideApi(customerId: number, pricelistId: number) {
  await env.DB.prepare("insert into customer_pricelists (customer_id, pricelist_id) values (?, ?)")
    .bind(customerId, pricelistId)
    .run();
}

// Seed endpoint 8 and its assign counterpart.
describeBulkAssign({
  label: "pricelist customer groups",
  path: (id) => `/v1/api/pricelist/${id}/customer-groups`,
  field: "customerGroupCodes",
  createOwner: async () => (await createPricelist()).id as number,
  createTarget: async () => (await createCustomerGroup()).code,
  linked: async (id, codes) => (await groupsOf(id)).filter((g) => codes.includes(g)),
  missingOwner: { key: 999_999_999, detail: "pricelist 999999999 not found" },
  badOwnerKeys: ["0", "abc"],
  badOwnerIssue: "path.id",
  roundTrips: {
    assign: { exactly: 2 },
    unassign: { exactly: 2 },
    bulkAssign: { atMost: 3 },
    bulkUnassign: { atMost: 3 },
  },
});

describe("pricelist customer groups: assign (counterpart of seed endpoint 8)", () => {
  it("assigns ACTIVE and INACTIVE pricelists too", async () => {
    const pl = await createPricelist({ status: "ACTIVE" });
    await setPricelistStatus(pl.id, "INACTIVE");
    const g = await createCustomerGroup();
    const res = await api("POST", assignPath(pl.id), { body: { customerGroupCodes: [g.code] } });
    expect(res.body).toEqual({ assigned: [g.code], skipped: [], notFound: [] });
  });

  it("refuses an INDIVIDUAL or ARCHIVED pricelist with 409 and writes nothing", async () => {
    const customer = await createCustomer();
    const individual = await createIndividualPricelist(customer.code);
    const g = await createCustomerGroup();
    const res = await api("POST", assignPath(individual.id), {
      body: { customerGroupCodes: [g.code] },
    });
    expect(expectProblem(res, 409, "PRICELIST_NOT_ASSIGNABLE").detail).toBe(
      `pricelist ${individual.id} is INDIVIDUAL (owned by customer ${customer.code}) and cannot be assigned to customer groups`,
    );
    expect(await groupsOf(individual.id)).toEqual([]);

    const archived = await createPricelist();
    await setPricelistStatus(archived.id, "ARCHIVED");
    const res2 = await api("POST", assignPath(archived.id), {
      body: { customerGroupCodes: [g.code] },
    });
    expect(expectProblem(res2, 409, "PRICELIST_NOT_ASSIGNABLE").detail).toBe(
      `pricelist ${archived.id} is ARCHIVED and cannot be assigned to customer groups`,
    );
    expect(await groupsOf(archived.id)).toEqual([]);
  });
});

describe("pricelist customer groups: unassign (seed endpoint 8)", () => {
  it("detaches groups from an ARCHIVED pricelist", async () => {
    const pl = await createPricelist();
    const g = await createCustomerGroup();
    await api("POST", assignPath(pl.id), { body: { customerGroupCodes: [g.code] } });
    await setPricelistStatus(pl.id, "ARCHIVED");
    const res = await api("POST", unassignPath(pl.id), { body: { customerGroupCodes: [g.code] } });
    expect(res.body).toEqual({ unassigned: [g.code], notFound: [] });
    expect(await groupsOf(pl.id)).toEqual([]);
  });
});

describe("DELETE /v1/api/pricelist/individual/{id} (seed endpoint 16)", () => {
  it("deletes a DRAFT individual pricelist with its prices and assignments", async () => {
    const customer = await createCustomer();
    const pl = await createIndividualPricelist(customer.code);
    const product = await createProduct();
    const put = await api("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      body: { prices: [{ productCode: product.code, amount: 500 }] },
    });
    expect(put.status).toBe(200);
    await linkOwnerOutsideApi(customer.id, pl.id);
    expect(await countRows("pricelist_prices", "pricelist_id", pl.id)).toBe(1);
    expect(await countRows("customer_pricelists", "pricelist_id", pl.id)).toBe(1);
    const before = await api("GET", `/v1/api/customer/${customer.code}`);
    expect(before.body.pricelists.map((p: { id: number }) => p.id)).toEqual([pl.id]);

    const res = await api("DELETE", `/v1/api/pricelist/individual/${pl.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
    expect(roundTrips(res)).toBe(1);

    expect(await countRows("pricelists", "id", pl.id)).toBe(0);
    expect(await countRows("pricelist_prices", "pricelist_id", pl.id)).toBe(0);
    expect(await countRows("customer_pricelists", "pricelist_id", pl.id)).toBe(0);
    expectProblem(await api("GET", `/v1/api/pricelist/${pl.id}`), 404, "NOT_FOUND");
    const after = await api("GET", `/v1/api/customer/${customer.code}`);
    expect(after.status).toBe(200);
    expect(after.body.pricelists).toEqual([]);
    // The product is free again: its only price went with the pricelist.
    expect((await api("DELETE", `/v1/api/product/${product.code}`)).status).toBe(204);

    const again = await api("DELETE", `/v1/api/pricelist/individual/${pl.id}`);
    expect(expectProblem(again, 404, "NOT_FOUND").detail).toBe(
      `individual pricelist ${pl.id} not found`,
    );
  });

  it("answers 404 for an unknown id and for a GENERAL pricelist, which stays", async () => {
    const general = await createPricelist();
    const res = await api("DELETE", `/v1/api/pricelist/individual/${general.id}`);
    expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(
      `individual pricelist ${general.id} not found`,
    );
    expect((await api("GET", `/v1/api/pricelist/${general.id}`)).status).toBe(200);
    expectProblem(await api("DELETE", "/v1/api/pricelist/individual/999999997"), 404, "NOT_FOUND");
  });

  it("refuses a pricelist that is not DRAFT with 409 naming the status", async () => {
    const customer = await createCustomer();
    for (const steps of [["ACTIVE"], ["ACTIVE", "INACTIVE"], ["ARCHIVED"]]) {
      const pl = await createIndividualPricelist(customer.code);
      await setPricelistStatus(pl.id, ...steps);
      const status = steps.at(-1);
      const res = await api("DELETE", `/v1/api/pricelist/individual/${pl.id}`);
      expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
        `pricelist ${pl.id} is ${status}; only a DRAFT individual pricelist can be deleted`,
      );
      expect((await api("GET", `/v1/api/pricelist/${pl.id}`)).body.status).toBe(status);
    }
  });

  it("validates the id, 401 and 403", async () => {
    const customer = await createCustomer();
    const pl = await createIndividualPricelist(customer.code);
    expect(issuePaths(await api("DELETE", "/v1/api/pricelist/individual/abc"))).toEqual([
      "path.id",
    ]);
    expectProblem(
      await api("DELETE", `/v1/api/pricelist/individual/${pl.id}`, { key: KEYS.read }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("DELETE", `/v1/api/pricelist/individual/${pl.id}`, { key: null }),
      401,
      "UNAUTHORIZED",
    );
    expect((await api("GET", `/v1/api/pricelist/${pl.id}`)).status).toBe(200);
  });
});

describe("GET /v1/api/pricelist/{id}/customers (seed endpoint 20)", () => {
  const customersPath = (id: number, query = "") => `/v1/api/pricelist/${id}/customers${query}`;

  it("lists the owner of an INDIVIDUAL pricelist in the Customer shape, in one round trip", async () => {
    const group = await createCustomerGroup();
    const owner = await createCustomer({ customerGroupCodes: [group.code] });
    await createCustomer(); // not related
    const pl = await createIndividualPricelist(owner.code);
    const res = await api("GET", customersPath(pl.id), { key: KEYS.read });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: owner.id,
        code: owner.code,
        name: "Customer",
        customerGroupCodes: [group.code],
        channelCodes: [],
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    ]);
    expect(res.body.meta).toEqual({
      itemsPerPage: 20,
      totalItems: 1,
      currentPage: 1,
      totalPages: 1,
      sortBy: [["id", "DESC"]],
    });
    expect(res.body.links).toEqual({
      current: `http://pricing.test${customersPath(pl.id)}?page=1&limit=20&sortBy=id:DESC`,
    });
    expect(roundTrips(res)).toBe(1);
  });

  it("lists the customers a GENERAL pricelist is assigned to, each once, with paging, sort and search", async () => {
    const pl = await createPricelist();
    const tag = uid("T");
    const names = ["Kappa", "lambda", "Mu"];
    const customers = [];
    for (const name of names) customers.push(await createCustomer({ name: `${name} ${tag}` }));
    for (const c of customers) await assignPricelistToCustomer(c.code, pl.id);
    await createCustomer({ name: `Other ${tag}` }); // not assigned

    const all = await api("GET", customersPath(pl.id));
    expect(all.body.data.map((c: { id: number }) => c.id)).toEqual(
      customers.map((c) => c.id).reverse(),
    );
    expect(all.body.meta.totalItems).toBe(3);

    const byName = await api("GET", customersPath(pl.id, "?sortBy=name:asc&limit=2&page=2"));
    expect(byName.body.data.map((c: { name: string }) => c.name)).toEqual([`Mu ${tag}`]);
    expect(byName.body.meta).toMatchObject({ totalItems: 3, totalPages: 2, currentPage: 2 });
    expect(byName.body.meta.sortBy).toEqual([["name", "ASC"]]);

    const search = await api("GET", customersPath(pl.id, `?search=LAMBDA&searchBy=name`));
    expect(search.body.data.map((c: { code: string }) => c.code)).toEqual([customers[1].code]);
    expect(search.body.meta).toMatchObject({ search: "LAMBDA", searchBy: ["name"] });

    const byCode = await api("GET", customersPath(pl.id, `?search=${customers[2].code}`));
    expect(byCode.body.data.map((c: { code: string }) => c.code)).toEqual([customers[2].code]);

    // Unassigning takes the customer out of the list.
    await env.DB.prepare(
      "delete from customer_pricelists where customer_id = ? and pricelist_id = ?",
    )
      .bind(customers[0].id, pl.id)
      .run();
    const after = await api("GET", customersPath(pl.id, "?sortBy=code:ASC"));
    expect(after.body.data.map((c: { id: number }) => c.id).sort()).toEqual(
      [customers[1].id, customers[2].id].sort(),
    );
  });

  it("counts an owner who is also assigned once, and is empty for a list nobody holds", async () => {
    const owner = await createCustomer();
    const pl = await createIndividualPricelist(owner.code);
    await linkOwnerOutsideApi(owner.id, pl.id);
    const res = await api("GET", customersPath(pl.id));
    expect(res.body.data.map((c: { id: number }) => c.id)).toEqual([owner.id]);
    expect(res.body.meta.totalItems).toBe(1);

    const empty = await api("GET", customersPath((await createPricelist()).id));
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.meta).toMatchObject({ totalItems: 0, totalPages: 0 });
  });

  it("404 for an unknown pricelist, 400 for bad queries and ids, 401 without key", async () => {
    const missing = await api("GET", customersPath(999_999_996));
    expect(expectProblem(missing, 404, "NOT_FOUND").detail).toBe("pricelist 999999996 not found");
    expect(roundTrips(missing)).toBe(1);
    const pl = await createPricelist();
    expect(issuePaths(await api("GET", customersPath(pl.id, "?sortBy=createdAt:ASC")))).toEqual([
      "query.sortBy",
    ]);
    expect(issuePaths(await api("GET", customersPath(pl.id, "?filter.code=X")))).toEqual([
      "query.filter.code",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/pricelist/1.5/customers"))).toEqual(["path.id"]);
    expectProblem(await api("GET", customersPath(pl.id), { key: null }), 401, "UNAUTHORIZED");
  });
});
