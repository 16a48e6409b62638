import { describe, expect, it } from "vitest";
import {
  archivePricelist,
  createCustomer,
  createIndividualPricelist,
  createPricelist,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, roundTrips } from "../shared/helpers";
import { customerPricelistRows, getCustomer, getPricelist } from "../shared/reads";

const path = (code: string) => `/v1/api/customer/${code}/pricelist`;
const assign = (code: string, pricelistId: unknown, key?: string | null) =>
  api("POST", path(code), { body: { pricelistId }, key });

describe("customer pricelist assignment (seed endpoint 13)", () => {
  it("assigns a GENERAL pricelist, shows it in the customer, and is idempotent", async () => {
    const customer = await createCustomer();
    const pl = await createPricelist({ status: "ACTIVE", priority: 3 });
    const first = await assign(customer.code, pl.id);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ customerCode: customer.code, pricelistId: pl.id });
    expect(roundTrips(first)).toBeLessThanOrEqual(3);

    const detail = await getCustomer(customer.code);
    expect(detail.pricelists).toEqual([await getPricelist(pl.id)]);
    expect(detail.primaryPricelist).toEqual(await getPricelist(pl.id));

    const again = await assign(customer.code, pl.id);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await getCustomer(customer.code)).pricelists).toHaveLength(1);
    expect(await customerPricelistRows(customer.code)).toEqual([pl.id]);
  });

  it("assigns a DRAFT pricelist too (listed, not primary)", async () => {
    const customer = await createCustomer();
    const draft = await createPricelist({ status: "DRAFT" });
    expect((await assign(customer.code, draft.id)).status).toBe(201);
    const detail = await getCustomer(customer.code);
    expect(detail.pricelists.map((p: { id: number }) => p.id)).toEqual([draft.id]);
    expect(detail.primaryPricelist).toBeNull();
  });

  it("answers 201 for the customer's own INDIVIDUAL pricelist and writes nothing", async () => {
    const customer = await createCustomer();
    const own = await createIndividualPricelist(customer.code);
    const res = await assign(customer.code, own.id);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ customerCode: customer.code, pricelistId: own.id });
    expect(roundTrips(res)).toBe(1);
    expect(await customerPricelistRows(customer.code)).toEqual([]);
    expect((await getCustomer(customer.code)).pricelists).toEqual([own]);
    expect((await assign(customer.code, own.id)).body).toEqual(res.body);
  });

  it("refuses another customer's INDIVIDUAL pricelist and ARCHIVED ones (409), writing nothing", async () => {
    const customer = await createCustomer();
    const other = await createCustomer();
    const foreign = await createIndividualPricelist(other.code);
    const res = await assign(customer.code, foreign.id);
    expect(expectProblem(res, 409, "PRICELIST_NOT_ASSIGNABLE").detail).toBe(
      `pricelist ${foreign.id} is INDIVIDUAL (owned by customer ${other.code}) and cannot be assigned to customer ${customer.code}`,
    );

    const archived = await createPricelist({ status: "ACTIVE" });
    await archivePricelist(archived.id);
    const arch = await assign(customer.code, archived.id);
    expect(expectProblem(arch, 409, "PRICELIST_NOT_ASSIGNABLE").detail).toBe(
      `pricelist ${archived.id} is ARCHIVED and cannot be assigned to customer ${customer.code}`,
    );

    const own = await createIndividualPricelist(customer.code);
    await archivePricelist(own.id);
    expectProblem(await assign(customer.code, own.id), 409, "PRICELIST_NOT_ASSIGNABLE");

    expect(await customerPricelistRows(customer.code)).toEqual([]);
    expect((await getCustomer(customer.code)).pricelists.map((p: { id: number }) => p.id)).toEqual([
      own.id,
    ]);
  });

  it("answers 404 naming the unknown customer or pricelist", async () => {
    const customer = await createCustomer();
    const pl = await createPricelist({ status: "ACTIVE" });
    const noCustomer = await assign("NOPE-CUST", pl.id);
    expect(expectProblem(noCustomer, 404, "NOT_FOUND").detail).toBe("customer NOPE-CUST not found");
    const noPricelist = await assign(customer.code, 999999999);
    expect(expectProblem(noPricelist, 404, "NOT_FOUND").detail).toBe(
      "pricelist 999999999 not found",
    );
  });

  it("validates the body and the path, and needs an admin key", async () => {
    const customer = await createCustomer();
    for (const pricelistId of [0, -5, 2.5, "7", null, 1e20]) {
      expect(issuePaths(await assign(customer.code, pricelistId))).toEqual(["body.pricelistId"]);
    }
    const send = (body: unknown) => api("POST", path(customer.code), { body });
    expect(issuePaths(await send({}))).toEqual(["body.pricelistId"]);
    expect(issuePaths(await send({ pricelistId: 1, customerCode: "X" }))).toEqual([
      "body.customerCode",
    ]);
    expect(issuePaths(await assign("bad%20code", 1))).toEqual(["path.code"]);
    const text = await api("POST", path(customer.code), {
      raw: "pricelistId=1",
      headers: { "content-type": "text/plain" },
    });
    expectProblem(text, 415, "UNSUPPORTED_MEDIA_TYPE");
    expectProblem(await assign(customer.code, 1, null), 401, "UNAUTHORIZED");
    expectProblem(await assign(customer.code, 1, KEYS.read), 403, "FORBIDDEN");
  });
});
