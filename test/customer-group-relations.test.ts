import { describe, expect, it } from "vitest";
import {
  archive,
  createCustomer,
  createGeneral,
  createGroup,
  createIndividual,
  getCustomer,
  groupPricelists,
  missingCodes,
  roundTrips,
} from "./factories/relations";
import { api, expectProblem, issuePaths, KEYS } from "./helpers";

const assignPath = (code: string) => `/v1/api/customer-group/${code}/pricelist`;
const unassignPath = (code: string) => `/v1/api/customer-group/${code}/pricelist/unassign`;

describe("customer group pricelists (seed endpoint 7 and its assign counterpart)", () => {
  it("assigns a GENERAL pricelist (also DRAFT) idempotently", async () => {
    const group = await createGroup();
    const pl = await createGeneral({ status: "DRAFT" });
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
    const group = await createGroup();
    const owner = await createCustomer();
    const individual = await createIndividual(owner.code);
    const archived = await createGeneral();
    await archive(archived.id);
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
    const group = await createGroup();
    const [a, b] = [await createGeneral(), await createGeneral()];
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
    const group = await createGroup();
    const pl = await createGeneral();
    await api("POST", assignPath(group.code), { body: { pricelistId: pl.id } });
    await archive(pl.id);
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
    const group = await createGroup();
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

describe("customer group membership", () => {
  it("adds customers, reports assigned/skipped/notFound, is idempotent, and shows in the customer", async () => {
    const group = await createGroup();
    const [a, b] = [await createCustomer(), await createCustomer()];
    const path = `/v1/api/customer-group/${group.code}/customer`;
    const body = { customerCodes: [b.code, "NOPE-M1", a.code, b.code] };
    const first = await api("POST", path, { body });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      assigned: [b.code, a.code],
      skipped: ["NOPE-M1"],
      notFound: ["NOPE-M1"],
    });
    expect(roundTrips(first)).toBeLessThanOrEqual(3);
    expect((await getCustomer(a.code)).customerGroupCodes).toEqual([group.code]);

    const again = await api("POST", path, { body });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({
      assigned: [],
      skipped: [b.code, "NOPE-M1", a.code],
      notFound: ["NOPE-M1"],
    });
    expect((await getCustomer(b.code)).customerGroupCodes).toEqual([group.code]);
  });

  it("removes customers (existing codes also when not members) and is idempotent", async () => {
    const group = await createGroup();
    const other = await createGroup();
    const a = await createCustomer({ customerGroupCodes: [group.code, other.code] });
    const b = await createCustomer();
    const path = `/v1/api/customer-group/${group.code}/customer/unassign`;
    const body = { customerCodes: [a.code, b.code, "NOPE-M2"] };
    const res = await api("POST", path, { body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ unassigned: [a.code, b.code], notFound: ["NOPE-M2"] });
    expect(roundTrips(res)).toBeLessThanOrEqual(3);
    expect((await getCustomer(a.code)).customerGroupCodes).toEqual([other.code]);

    const again = await api("POST", path, { body });
    expect(again.body).toEqual(res.body);
    expect((await getCustomer(a.code)).customerGroupCodes).toEqual([other.code]);
  });

  it("handles 1000 codes each way in at most three round trips", async () => {
    const group = await createGroup();
    const [a, b] = [await createCustomer(), await createCustomer()];
    const codes = [...missingCodes(500, "NO-M"), a.code, b.code, ...missingCodes(498, "NO-N")];
    const added = await api("POST", `/v1/api/customer-group/${group.code}/customer`, {
      body: { customerCodes: codes },
    });
    expect(added.status).toBe(201);
    expect(added.body.assigned).toEqual([a.code, b.code]);
    expect(added.body.notFound).toHaveLength(998);
    expect(roundTrips(added)).toBeLessThanOrEqual(3);

    const removed = await api("POST", `/v1/api/customer-group/${group.code}/customer/unassign`, {
      body: { customerCodes: codes },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.unassigned).toEqual([a.code, b.code]);
    expect(removed.body.notFound).toHaveLength(998);
    expect(roundTrips(removed)).toBeLessThanOrEqual(3);
    expect((await getCustomer(a.code)).customerGroupCodes).toEqual([]);
  });

  it("validates the body, the group and the key", async () => {
    const group = await createGroup();
    for (const suffix of ["customer", "customer/unassign"]) {
      const path = `/v1/api/customer-group/${group.code}/${suffix}`;
      const send = (body: unknown, key?: string | null) => api("POST", path, { body, key });
      expect(issuePaths(await send({ customerCodes: [] }))).toEqual(["body.customerCodes"]);
      expect(issuePaths(await send({ customerCodes: missingCodes(1001) }))).toEqual([
        "body.customerCodes",
      ]);
      expect(issuePaths(await send({ customerCodes: ["ok", "bad code"] }))).toEqual([
        "body.customerCodes.1",
      ]);
      expect(issuePaths(await send({ customerGroupCodes: ["X"] }))).toEqual([
        "body.customerCodes",
        "body.customerGroupCodes",
      ]);
      const missing = await api("POST", `/v1/api/customer-group/NOPE-G/${suffix}`, {
        body: { customerCodes: ["X"] },
      });
      expect(expectProblem(missing, 404, "NOT_FOUND").detail).toBe(
        "customer group NOPE-G not found",
      );
      expectProblem(await send({ customerCodes: ["X"] }, null), 401, "UNAUTHORIZED");
      expectProblem(await send({ customerCodes: ["X"] }, KEYS.read), 403, "FORBIDDEN");
    }
  });
});
