import { describe, expect, it } from "vitest";
import { createCustomerGroup, createProduct, createProductGroup } from "./factories";
import { api, expectProblem, uid } from "./helpers";
import { describeBulkUpsert } from "./shared/bulk-upsert";

/** Bulk upserts by code (docs/api.md §5.11): the shared rules, then each resource's own. */

const rename = (row: Record<string, unknown>) => ({ ...row, name: `${row.name as string} v2` });

describeBulkUpsert("products", {
  path: "/v1/api/product",
  field: "products",
  table: "products",
  prefix: "P",
  row: (code, i) => ({ code, name: `Product ${i}`, minOrderQuantity: 1 + (i % 5) }),
  change: rename,
  bad: {
    row: (code) => ({ code, name: "Grouped", productGroupCode: "NOPE-GROUP" }),
    key: "productGroupCode",
    message: "unknown product group NOPE-GROUP",
    roundTrips: 1,
  },
  recordPath: (code) => `/v1/api/product/${code}`,
});

describeBulkUpsert("customer groups", {
  path: "/v1/api/customer-group",
  field: "customerGroups",
  table: "customer_groups",
  prefix: "G",
  row: (code, i) => ({ code, name: `Group ${i}`, description: i % 2 ? null : `Group number ${i}` }),
  change: rename,
  bad: {
    row: (code) => ({ code, name: "Bell", description: "ring\u0007" }),
    key: "description",
    message: "must not contain control characters (found U+0007)",
    roundTrips: 0,
  },
  recordPath: (code) => `/v1/api/customer-group/${code}`,
});

const putProducts = (products: unknown[]) => api("PUT", "/v1/api/product", { body: { products } });
const getProduct = async (code: string) => (await api("GET", `/v1/api/product/${code}`)).body;

describe("PUT /v1/api/product: the rules of create and PATCH, row by row", () => {
  it("sets the group by code, keeps what a row leaves out, and clears with null", async () => {
    const group = await createProductGroup();
    const product = await createProduct({
      productGroupCode: group.code,
      minOrderQuantity: 10,
      orderIncrement: 5,
      maxOrderQuantity: 100,
    });
    const fresh = uid("P");
    const res = await putProducts([
      { code: product.code, name: "Renamed" },
      { code: fresh, name: "New", productGroupCode: group.code },
    ]);
    expect(res.body).toEqual({ created: [fresh], updated: [product.code], unchanged: 0 });
    expect(await getProduct(product.code)).toMatchObject({
      name: "Renamed",
      productGroupCode: group.code,
      minOrderQuantity: 10,
      orderIncrement: 5,
      maxOrderQuantity: 100,
    });
    expect(await getProduct(fresh)).toMatchObject({
      productGroupCode: group.code,
      minOrderQuantity: 1,
      orderIncrement: 1,
      maxOrderQuantity: null,
    });
    const cleared = await putProducts([
      { code: product.code, name: "Renamed", productGroupCode: null, maxOrderQuantity: null },
    ]);
    expect(cleared.body).toEqual({ created: [], updated: [product.code], unchanged: 0 });
    expect(await getProduct(product.code)).toMatchObject({
      productGroupCode: null,
      maxOrderQuantity: null,
      minOrderQuantity: 10,
    });
  });

  it("judges the quantity rule on the merged record, naming the field each row set", async () => {
    const boxed = await createProduct({ minOrderQuantity: 100, maxOrderQuantity: 500 });
    const merged = await putProducts([
      { code: uid("P"), name: "Upside down", minOrderQuantity: 10, maxOrderQuantity: 9 },
      { code: boxed.code, name: boxed.name, maxOrderQuantity: 50 },
      { code: uid("P"), name: "Fine" },
      {
        code: boxed.code.toLowerCase(),
        name: "Other",
        minOrderQuantity: 600,
        maxOrderQuantity: null,
      },
    ]);
    expect(expectProblem(merged, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.products.0.maxOrderQuantity", message: "must be ≥ minOrderQuantity (10)" },
      { path: "body.products.1.maxOrderQuantity", message: "must be ≥ minOrderQuantity (100)" },
    ]);
    const raised = await putProducts([
      { code: boxed.code, name: boxed.name, minOrderQuantity: 600 },
    ]);
    expect(expectProblem(raised, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.products.0.minOrderQuantity", message: "must be ≤ maxOrderQuantity (500)" },
    ]);
    expect(await getProduct(boxed.code)).toMatchObject({
      minOrderQuantity: 100,
      maxOrderQuantity: 500,
    });
  });

  it("names every row with an unknown group", async () => {
    const group = await createProductGroup();
    const res = await putProducts([
      { code: uid("P"), name: "A", productGroupCode: "NOPE-1" },
      { code: uid("P"), name: "B", productGroupCode: group.code },
      { code: uid("P"), name: "C", productGroupCode: "NOPE-2" },
    ]);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.products.0.productGroupCode", message: "unknown product group NOPE-1" },
      { path: "body.products.2.productGroupCode", message: "unknown product group NOPE-2" },
    ]);
  });
});

describe("PUT /v1/api/customer-group", () => {
  it("keeps a description a row leaves out, and clears it with null", async () => {
    const group = await createCustomerGroup({ description: "Kept" });
    const res = await api("PUT", "/v1/api/customer-group", {
      body: { customerGroups: [{ code: group.code, name: "Renamed" }] },
    });
    expect(res.body).toEqual({ created: [], updated: [group.code], unchanged: 0 });
    const kept = (await api("GET", `/v1/api/customer-group/${group.code}`)).body;
    expect(kept).toMatchObject({ name: "Renamed", description: "Kept" });
    const same = { code: group.code, name: "Renamed", description: "Kept" };
    const again = await api("PUT", "/v1/api/customer-group", { body: { customerGroups: [same] } });
    expect(again.body).toEqual({ created: [], updated: [], unchanged: 1 });
    await api("PUT", "/v1/api/customer-group", {
      body: { customerGroups: [{ ...same, description: null }] },
    });
    const cleared = (await api("GET", `/v1/api/customer-group/${group.code}`)).body;
    expect(cleared).toMatchObject({ description: null, updatedAt: expect.any(String) });
    expect(cleared.updatedAt > kept.updatedAt).toBe(true);
  });
});
