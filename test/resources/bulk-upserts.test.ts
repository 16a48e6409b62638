import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import {
  createChannel,
  createCustomer,
  createCustomerGroup,
  createProduct,
  createProductGroup,
} from "../factories";
import { call } from "../fuzz/worker";
import { api, expectProblem, roundTrips, uid } from "../shared/helpers";
import { auditOf, describeBulkUpsert, pricingVersion } from "../shared/bulk-upsert";

/**
 * Bulk upserts by code (docs/api/relations.md §5.12): the shared rules, then each resource's own.
 */

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

describeBulkUpsert("customers", {
  path: "/v1/api/customer",
  field: "customers",
  table: "customers",
  prefix: "C",
  row: (code, i) => ({ code, name: `Customer ${i}` }),
  change: rename,
  bad: {
    row: (code) => ({ code, name: "Grouped", customerGroupCodes: ["NOPE-GROUP"] }),
    key: "customerGroupCodes",
    message: "unknown customer group codes: NOPE-GROUP",
    roundTrips: 1,
  },
  recordPath: (code) => `/v1/api/customer/${code}`,
});

describeBulkUpsert("product groups", {
  path: "/v1/api/product-group",
  field: "productGroups",
  table: "product_groups",
  prefix: "PG",
  row: (code, i) => ({ code, name: `Group ${i}` }),
  change: rename,
  bad: {
    row: (code) => ({ code, name: "Orphan", parentCode: "NOPE-PARENT" }),
    key: "parentCode",
    message: "unknown product group NOPE-PARENT",
    roundTrips: 1,
  },
  recordPath: (code) => `/v1/api/product-group/${code}`,
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

  it("names every bad row of a full body, not only the first 20", async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      code: uid("P"),
      name: i % 2 ? "" : "fine",
      ...(i % 2 ? {} : { productGroupCode: `NOPE-${i}` }),
    }));
    const names = expectProblem(await putProducts(rows), 400, "VALIDATION_FAILED");
    expect(names.errors).toHaveLength(500);
    expect(names.errors![499]).toEqual({
      path: "body.products.999.name",
      message: expect.any(String),
    });
    const groups = expectProblem(
      await putProducts(rows.filter((_, i) => i % 2 === 0)),
      400,
      "VALIDATION_FAILED",
    );
    expect(groups.detail).toBe("500 validation issues; see errors");
    expect(groups.errors![499]).toEqual({
      path: "body.products.499.productGroupCode",
      message: "unknown product group NOPE-998",
    });
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

const putCustomers = (customers: unknown[]) =>
  api("PUT", "/v1/api/customer", { body: { customers } });
const memberships = async (code: string) => {
  const { customerGroupCodes, channelCodes } = (await api("GET", `/v1/api/customer/${code}`)).body;
  return { customerGroupCodes, channelCodes };
};
const codesOf = async (n: number, create: () => Promise<{ code: string }>) =>
  (await Promise.all(Array.from({ length: n }, create))).map((r) => r.code).sort();

describe("PUT /v1/api/customer: memberships", () => {
  it("given arrays replace the memberships, writing only the differences; absent ones leave them alone", async () => {
    const [g1, g2, g3] = await codesOf(3, () => createCustomerGroup());
    const [c1, c2] = await codesOf(2, () => createChannel());
    const code = uid("C");
    const first = await putCustomers([
      { code, name: "Muster", customerGroupCodes: [g2, g1, g2], channelCodes: [c1] },
    ]);
    expect(first.body).toEqual({ created: [code], updated: [], unchanged: 0 });
    expect(await memberships(code)).toEqual({ customerGroupCodes: [g1, g2], channelCodes: [c1] });

    // No arrays: the memberships stay, only the name changes.
    const renamed = await putCustomers([{ code, name: "Muster GmbH" }]);
    expect(renamed.body).toEqual({ created: [], updated: [code], unchanged: 0 });
    expect(await memberships(code)).toEqual({ customerGroupCodes: [g1, g2], channelCodes: [c1] });

    // Groups replaced: g1 leaves, g3 joins, g2 is not touched; channels are left alone.
    const moved = await putCustomers([{ code, name: "Muster GmbH", customerGroupCodes: [g3, g2] }]);
    expect(moved.body).toEqual({ created: [], updated: [code], unchanged: 0 });
    expect(await memberships(code)).toEqual({ customerGroupCodes: [g2, g3], channelCodes: [c1] });
    const entries = (await auditOf(moved)).entries.map((e) => [e.action, e.entity]);
    expect(entries).toEqual([
      ["DELETE", "customerGroupMember"],
      ["INSERT", "customerGroupMember"],
    ]);

    // The same sets in another order change nothing.
    const version = await pricingVersion();
    const same = await putCustomers([
      { code, name: "Muster GmbH", customerGroupCodes: [g3, g2], channelCodes: [c1] },
    ]);
    expect(same.body).toEqual({ created: [], updated: [], unchanged: 1 });
    expect((await auditOf(same)).total).toBe(0);
    expect(await pricingVersion()).toBe(version);

    // [] removes all; the other array is replaced in the same row.
    await putCustomers([{ code, name: "Muster GmbH", customerGroupCodes: [], channelCodes: [c2] }]);
    expect(await memberships(code)).toEqual({ customerGroupCodes: [], channelCodes: [c2] });
  });

  it("names every row with unknown group or channel codes; nothing is written", async () => {
    const [group] = await codesOf(1, () => createCustomerGroup());
    const known = await createCustomer({ customerGroupCodes: [group] });
    const fresh = uid("C");
    const res = await putCustomers([
      { code: fresh, name: "New", customerGroupCodes: [group] },
      { code: known.code, name: "Known", customerGroupCodes: ["NOPE-B", group, "NOPE-A"] },
      { code: uid("C"), name: "Other", channelCodes: ["NOPE-CH"] },
    ]);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.customers.1.customerGroupCodes",
        message: "unknown customer group codes: NOPE-B, NOPE-A",
      },
      { path: "body.customers.2.channelCodes", message: "unknown channel codes: NOPE-CH" },
    ]);
    expect((await api("GET", `/v1/api/customer/${fresh}`)).status).toBe(404);
    expect((await api("GET", `/v1/api/customer/${known.code}`)).body.name).toBe(known.name);
  });

  it("sets the memberships of 1000 customers in at most 3 round trips", async () => {
    const groups = await codesOf(3, () => createCustomerGroup());
    const [channel] = await codesOf(1, () => createChannel());
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      code: uid("C"),
      name: `Customer ${i}`,
      customerGroupCodes: [groups[i % 3], groups[(i + 1) % 3]],
      channelCodes: [channel],
    }));
    const res = await putCustomers(rows);
    expect(res.body.created).toHaveLength(1000);
    expect(roundTrips(res)).toBeLessThanOrEqual(3);
    const links = await env.DB.prepare(
      `select (select count(*) from customer_group_members m join customers c on c.id = m.customer_id
          where c.code in (select value from json_each(?1))) as groups,
        (select count(*) from channel_customers m join customers c on c.id = m.customer_id
          where c.code in (select value from json_each(?1))) as channels`,
    )
      .bind(JSON.stringify(rows.map((r) => r.code)))
      .first();
    expect(links).toEqual({ groups: 2000, channels: 1000 });
    const moved = await putCustomers(rows.map((r) => ({ ...r, customerGroupCodes: [groups[2]] })));
    expect(moved.body.updated.length + moved.body.unchanged).toBe(1000);
    expect(roundTrips(moved)).toBeLessThanOrEqual(3);
    expect(await memberships(rows[0]!.code)).toEqual({
      customerGroupCodes: [groups[2]],
      channelCodes: [channel],
    });
  });
});

const putGroups = (productGroups: unknown[]) =>
  api("PUT", "/v1/api/product-group", { body: { productGroups } });
const parentOf = async (code: string) =>
  (await api("GET", `/v1/api/product-group/${code}`)).body.parentCode;

describe("PUT /v1/api/product-group: the forest", () => {
  it("takes parents listed after their children, and keeps or clears a stored parent", async () => {
    const [leaf, mid, root] = [uid("PG"), uid("PG"), uid("PG")];
    const res = await putGroups([
      { code: leaf, name: "Leaf", parentCode: mid },
      { code: mid, name: "Mid", parentCode: root },
      { code: root, name: "Root" },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ created: [leaf, mid, root], updated: [], unchanged: 0 });
    expect([await parentOf(leaf), await parentOf(mid), await parentOf(root)]).toEqual([
      mid,
      root,
      null,
    ]);
    // The same tree again, in another order: nothing to write.
    const again = await putGroups([
      { code: root, name: "Root", parentCode: null },
      { code: mid, name: "Mid", parentCode: root },
      { code: leaf, name: "Leaf", parentCode: mid },
    ]);
    expect(again.body).toEqual({ created: [], updated: [], unchanged: 3 });
    // Absent parentCode keeps the parent; null makes a root.
    const renamed = await putGroups([
      { code: leaf, name: "Leaf 2" },
      { code: mid, name: "Mid", parentCode: null },
    ]);
    expect(renamed.body).toEqual({ created: [], updated: [leaf, mid], unchanged: 0 });
    expect([await parentOf(leaf), await parentOf(mid)]).toEqual([mid, null]);
  });

  it("refuses a cycle within the body, naming each row on it", async () => {
    const [a, b, c] = [uid("PG"), uid("PG"), uid("PG")];
    const res = await putGroups([
      { code: a, name: "A", parentCode: b },
      { code: c, name: "C", parentCode: a },
      { code: b, name: "B", parentCode: a },
      { code: uid("PG"), name: "Self", parentCode: null },
    ]);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.productGroups.0.parentCode",
        message: `makes a cycle ${a} → ${b} → ${a} (each group → its parent)`,
      },
      {
        path: "body.productGroups.2.parentCode",
        message: `makes a cycle ${b} → ${a} → ${b} (each group → its parent)`,
      },
    ]);
    const self = uid("PG");
    const own = await putGroups([{ code: self, name: "Self", parentCode: self }]);
    expect(expectProblem(own, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.productGroups.0.parentCode",
        message: `makes a cycle ${self} → ${self} (each group → its parent)`,
      },
    ]);
    expect((await api("GET", `/v1/api/product-group/${c}`)).status).toBe(404);
  });

  it("refuses a cycle with the stored tree", async () => {
    const root = await createProductGroup();
    const child = await createProductGroup({ parentCode: root.code });
    const grandchild = await createProductGroup({ parentCode: child.code });
    const res = await putGroups([
      { code: root.code, name: root.name, parentCode: grandchild.code },
    ]);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.productGroups.0.parentCode",
        message:
          `makes a cycle ${root.code} → ${grandchild.code} → ${child.code} → ${root.code} ` +
          "(each group → its parent)",
      },
    ]);
    expect(await parentOf(root.code)).toBeNull();
  });

  it("refuses a branch deeper than 8 levels, naming it from the deepest group up", async () => {
    const chain = [await createProductGroup()];
    for (let i = 1; i < 7; i++)
      chain.push(await createProductGroup({ parentCode: chain[i - 1].code }));
    const [eighth, ninth] = [uid("PG"), uid("PG")];
    const ok = await putGroups([{ code: eighth, name: "8", parentCode: chain[6].code }]);
    expect(ok.body).toEqual({ created: [eighth], updated: [], unchanged: 0 });
    const res = await putGroups([
      { code: ninth, name: "9", parentCode: eighth },
      { code: eighth, name: "8 renamed" },
    ]);
    const upward = [ninth, eighth, ...chain.map((g) => g.code).reverse()];
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.productGroups.0.parentCode",
        message: `makes a branch of 9 levels, more than the 8 allowed: ${upward.join(" → ")} (each group → its parent)`,
      },
    ]);
    // Moving a stored subtree under a deep branch is judged with everything below it.
    const top = await createProductGroup();
    const under = await createProductGroup({ parentCode: top.code });
    const moved = await putGroups([{ code: top.code, name: top.name, parentCode: chain[6].code }]);
    const branch = [under.code, top.code, ...chain.map((g) => g.code).reverse()];
    expect(expectProblem(moved, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.productGroups.0.parentCode",
        message: `makes a branch of 9 levels, more than the 8 allowed: ${branch.join(" → ")} (each group → its parent)`,
      },
    ]);
    expect(await parentOf(top.code)).toBeNull();
  });

  it("two bodies that are fine alone but make a cycle together: one is written, the other refused", async () => {
    const [a, b] = [await createProductGroup(), await createProductGroup()];
    const [first, second] = await Promise.all([
      call("PUT", "/v1/api/product-group", {
        body: { productGroups: [{ code: a.code, name: a.name, parentCode: b.code }] },
      }),
      call("PUT", "/v1/api/product-group", {
        body: { productGroups: [{ code: b.code, name: b.name, parentCode: a.code }] },
      }),
    ]);
    expect([first!.status, second!.status].sort()).toEqual([200, 400]);
    const refused = first!.status === 400 ? first! : second!;
    expect(expectProblem(refused, 400, "VALIDATION_FAILED").errors![0]!.message).toMatch(
      /^makes a cycle /,
    );
    expect([await parentOf(a.code), await parentOf(b.code)].filter(Boolean)).toHaveLength(1);
  });

  it("writes a tree of 1000 groups listed leaves first in at most 3 round trips", async () => {
    const roots = Array.from({ length: 10 }, () => uid("PG"));
    const mids = Array.from({ length: 90 }, (_, i) => ({
      code: uid("PG"),
      parentCode: roots[i % 10],
    }));
    const leaves = Array.from({ length: 900 }, (_, i) => ({
      code: uid("PG"),
      parentCode: mids[i % 90]!.code,
    }));
    const rows = [
      ...leaves.map((g) => ({ ...g, name: "Leaf" })),
      ...mids.map((g) => ({ ...g, name: "Mid" })),
      ...roots.map((code) => ({ code, name: "Root" })),
    ];
    const res = await putGroups(rows);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.created).toHaveLength(1000);
    expect(roundTrips(res)).toBeLessThanOrEqual(3);
    expect(await parentOf(leaves[899]!.code)).toBe(mids[899 % 90]!.code);
    // Every group is recorded once as created; those under a new parent once more as placed.
    const audit = await auditOf(res);
    expect(audit.total).toBe(1000 + 990);
    const again = await putGroups(rows);
    expect(again.body).toEqual({ created: [], updated: [], unchanged: 1000 });
  });
});
