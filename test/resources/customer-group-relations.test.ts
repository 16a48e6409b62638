import { describe, expect, it } from "vitest";
import {
  archivePricelist,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, roundTrips } from "../shared/helpers";
import { getCustomer, groupPricelists } from "../shared/reads";
import { describeBulkAssign } from "../shared/bulk-assign";

const assignPath = (code: string) => `/v1/api/customer-group/${code}/pricelist`;
const unassignPath = (code: string) => `/v1/api/customer-group/${code}/pricelist/unassign`;

describe("customer group pricelists (seed endpoint 7 and its assign counterpart)", () => {
  it("assigns a GENERAL pricelist (also DRAFT) idempotently", async () => {
    const group = await createCustomerGroup();
    const pl = await createPricelist({ status: "DRAFT" });
    const first = await api("POST", assignPath(group.code), { body: { pricelistId: pl.id } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ customerGroupCode: group.code, pricelistId: pl.id });
    expect(roundTrips(first)).toBeLessThanOrEqual(3);
    expect(await groupPricelists(group.code)).toEqual([pl.id]);

    const again = await api("POST", assignPath(group.code), { body: { pricelistId: pl.id } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await groupPricelists(group.code)).toEqual([pl.id]);
  });

  it("refuses INDIVIDUAL and ARCHIVED pricelists (409) and unknown records (404) on assign", async () => {
    const group = await createCustomerGroup();
    const owner = await createCustomer();
    const individual = await createIndividualPricelist(owner.code);
    const archived = await createPricelist({ status: "ACTIVE" });
    await archivePricelist(archived.id);
    const post = (code: string, pricelistId: number) =>
      api("POST", assignPath(code), { body: { pricelistId } });

    expect(
      expectProblem(await post(group.code, individual.id), 409, "PRICELIST_NOT_ASSIGNABLE").detail,
    ).toBe(
      `pricelist ${individual.id} is INDIVIDUAL (owned by customer ${owner.code}) and cannot be assigned to customer group ${group.code}`,
    );
    expect(
      expectProblem(await post(group.code, archived.id), 409, "PRICELIST_NOT_ASSIGNABLE").detail,
    ).toBe(
      `pricelist ${archived.id} is ARCHIVED and cannot be assigned to customer group ${group.code}`,
    );
    expect(expectProblem(await post("NOPE-G", archived.id), 404, "NOT_FOUND").detail).toBe(
      "customer group NOPE-G not found",
    );
    expect(expectProblem(await post(group.code, 999999999), 404, "NOT_FOUND").detail).toBe(
      "pricelist 999999999 not found",
    );
    expect(await groupPricelists(group.code)).toEqual([]);
  });

  it("unassigns in one round trip, keeping the other assignments; again → 404 not assigned", async () => {
    const group = await createCustomerGroup();
    const [a, b] = [
      await createPricelist({ status: "ACTIVE" }),
      await createPricelist({ status: "ACTIVE" }),
    ];
    for (const pl of [a, b]) {
      await api("POST", assignPath(group.code), { body: { pricelistId: pl.id } });
    }
    const res = await api("POST", unassignPath(group.code), { body: { pricelistId: a.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ customerGroupCode: group.code, pricelistId: a.id });
    expect(roundTrips(res)).toBe(1);
    expect(await groupPricelists(group.code)).toEqual([b.id]);

    const again = await api("POST", unassignPath(group.code), { body: { pricelistId: a.id } });
    expect(expectProblem(again, 404, "NOT_FOUND").detail).toBe(
      `pricelist ${a.id} is not assigned to customer group ${group.code}`,
    );
    expect(await groupPricelists(group.code)).toEqual([b.id]);
  });

  it("unassigns an ARCHIVED pricelist; 404 names the unknown group or pricelist", async () => {
    const group = await createCustomerGroup();
    const pl = await createPricelist({ status: "ACTIVE" });
    await api("POST", assignPath(group.code), { body: { pricelistId: pl.id } });
    await archivePricelist(pl.id);
    const res = await api("POST", unassignPath(group.code), { body: { pricelistId: pl.id } });
    expect(res.status).toBe(200);
    expect(await groupPricelists(group.code)).toEqual([]);

    const noGroup = await api("POST", unassignPath("NOPE-G"), { body: { pricelistId: pl.id } });
    expect(expectProblem(noGroup, 404, "NOT_FOUND").detail).toBe("customer group NOPE-G not found");
    const noPricelist = await api("POST", unassignPath(group.code), {
      body: { pricelistId: 999999999 },
    });
    expect(expectProblem(noPricelist, 404, "NOT_FOUND").detail).toBe(
      "pricelist 999999999 not found",
    );
  });

  it("validates pricelistId bodies and the path, and needs an admin key", async () => {
    const group = await createCustomerGroup();
    for (const path of [assignPath(group.code), unassignPath(group.code)]) {
      const send = (body: unknown, key?: string | null) => api("POST", path, { body, key });
      for (const pricelistId of [0, -1, 1.5, "1", null, 1e20]) {
        expect(issuePaths(await send({ pricelistId }))).toEqual(["body.pricelistId"]);
      }
      expect(issuePaths(await send({}))).toEqual(["body.pricelistId"]);
      expect(issuePaths(await send({ pricelistId: 1, extra: 1 }))).toEqual(["body.extra"]);
      expectProblem(await send({ pricelistId: 1 }, null), 401, "UNAUTHORIZED");
      expectProblem(await send({ pricelistId: 1 }, KEYS.read), 403, "FORBIDDEN");
    }
    expect(
      issuePaths(await api("POST", assignPath("bad%20code"), { body: { pricelistId: 1 } })),
    ).toEqual(["path.code"]);
  });
});

// Membership by codes; the links show in the customer.
describeBulkAssign({
  label: "customer group members",
  path: (code) => `/v1/api/customer-group/${code}/customer`,
  field: "customerCodes",
  createOwner: async () => (await createCustomerGroup()).code,
  createTarget: async () => (await createCustomer()).code,
  linked: async (group, codes) => {
    const members = [];
    for (const c of codes) {
      if ((await getCustomer(c)).customerGroupCodes.includes(group)) members.push(c);
    }
    return members.sort();
  },
  missingOwner: { key: "NOPE-G", detail: "customer group NOPE-G not found" },
  badOwnerKeys: ["bad%20code"],
  badOwnerIssue: "path.code",
  roundTrips: {
    assign: { atMost: 3 },
    unassign: { atMost: 3 },
    bulkAssign: { atMost: 3 },
    bulkUnassign: { atMost: 3 },
  },
});

describe("customer group membership", () => {
  it("removing a member keeps its other groups", async () => {
    const [group, other] = [await createCustomerGroup(), await createCustomerGroup()];
    const a = await createCustomer({ customerGroupCodes: [group.code, other.code] });
    const path = `/v1/api/customer-group/${group.code}/customer/unassign`;
    const res = await api("POST", path, { body: { customerCodes: [a.code] } });
    expect(res.body).toEqual({ unassigned: [a.code], notFound: [] });
    expect((await getCustomer(a.code)).customerGroupCodes).toEqual([other.code]);
  });
});
