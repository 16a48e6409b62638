import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ENTITIES } from "../../src/feed/entities";
import { AUDIT_ENTITIES } from "../../src/db/audit";
import {
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";
import { head } from "../shared/webhook-helpers";

/**
 * The change feed (docs/api/feed-and-webhooks.md §13): every committed change of pricing data, read
 * from the audit trail in commit order, with `affects` saying whose prices may have moved.
 */

interface Change {
  cursor: number;
  event: string;
  entity: string;
  key: Record<string, unknown>;
  action: string;
  operation: string;
  requestId: string;
  affects: Record<string, unknown[]>;
}

/** Every change after `after`, page by page. */
async function changesAfter(after: number, limit = 100): Promise<Change[]> {
  const all: Change[] = [];
  let cursor = after;
  for (;;) {
    const res = await api("GET", `/v1/api/changes?after=${cursor}&limit=${limit}`);
    expect(res.status).toBe(200);
    all.push(...res.body.data);
    if (!res.body.hasMore) return all;
    cursor = res.body.next;
  }
}

/** The changes made by `write`. */
async function changesOf(write: () => Promise<unknown>): Promise<Change[]> {
  const start = await head();
  await write();
  return changesAfter(start);
}

const only = (changes: Change[], entity: string) => changes.filter((c) => c.entity === entity);

describe("GET /v1/api/changes", () => {
  it("answers the changes after a cursor in commit order, with event, key, operation and affects", async () => {
    const start = await head();
    const product = await createProduct();
    const pricelist = await createPricelist();
    const put = await api("PUT", `/v1/api/pricelist/${pricelist.id}/prices`, {
      body: { prices: [{ productCode: product.code, amount: 1250 }] },
    });
    expect(put.status).toBe(200);

    const res = await api("GET", `/v1/api/changes?after=${start}`, { key: KEYS.read });
    expect(res.status).toBe(200);
    const data = res.body.data as Change[];
    expect(data.map((c) => c.entity)).toEqual(["product", "pricelist", "pricelistPrice"]);
    expect(data.map((c) => c.cursor)).toEqual([start + 1, start + 2, start + 3]);
    expect(data[2]).toEqual({
      cursor: start + 3,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      event: "prices",
      entity: "pricelistPrice",
      key: { pricelistId: pricelist.id, productId: product.id, minQuantity: 1, validFrom: null },
      action: "INSERT",
      operation: "upsertPricelistPrices",
      requestId: put.headers.get("x-request-id"),
      affects: { pricelistIds: [pricelist.id], productCodes: [product.code] },
    });
    expect(data[0]!.affects).toEqual({ productCodes: [product.code] });
    expect(res.body.next).toBe(start + 3);
    expect(res.body.hasMore).toBe(false);
  });

  it("pages with limit and next, and a cursor past the newest change answers an empty page", async () => {
    const start = await head();
    for (let i = 0; i < 5; i++) await createProduct();
    const first = await api("GET", `/v1/api/changes?after=${start}&limit=2`);
    expect(first.body.data.map((c: Change) => c.cursor)).toEqual([start + 1, start + 2]);
    expect(first.body).toMatchObject({ next: start + 2, hasMore: true });
    expect((await changesAfter(start, 2)).map((c) => c.cursor)).toEqual(
      [1, 2, 3, 4, 5].map((n) => start + n),
    );
    const future = await api("GET", `/v1/api/changes?after=${start + 1000}`);
    expect(future.body).toEqual({ data: [], next: start + 1000, hasMore: false });
  });

  it("refuses a malformed cursor or limit with a sentence naming the parameter", async () => {
    for (const query of ["after=abc", "after=-1", "after=1.5", "after=9007199254740992"]) {
      const res = await api("GET", `/v1/api/changes?${query}`);
      expect(issuePaths(res)).toEqual(["query.after"]);
      expect(res.body.errors[0].message).toBe(
        "must be a whole number 0-9007199254740991 (a cursor from this feed)",
      );
    }
    // The largest cursor is one: an empty page that stays there.
    const last = await api("GET", "/v1/api/changes?after=9007199254740991");
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(last.body).toEqual({ data: [], next: 9007199254740991, hasMore: false });
    for (const query of ["limit=0", "limit=1001", "limit=x"]) {
      const res = await api("GET", `/v1/api/changes?${query}`);
      expect(issuePaths(res)).toEqual(["query.limit"]);
      expect(res.body.errors[0].message).toBe("must be a whole number 1-1000");
    }
    expectProblem(await api("GET", "/v1/api/changes", { key: null }), 401, "UNAUTHORIZED");
  });

  it("answers 410 with the oldest cursor still served when the cursor is older than the retention", async () => {
    await createProduct();
    await createProduct();
    const newest = await head();
    // What the retention does to old entries (src/jobs/retention.ts).
    await env.DB.prepare("delete from audit_log where id < ?").bind(newest).run();
    const res = await api("GET", `/v1/api/changes?after=${newest - 2}`);
    const problem = expectProblem(res, 410, "EXPIRED_CURSOR");
    expect(problem.detail).toBe(
      `cursor ${newest - 2} is older than the retention; the oldest cursor served is ${newest - 1}`,
    );
    expect(res.body.oldestCursor).toBe(newest - 1);
    const resumed = await api("GET", `/v1/api/changes?after=${newest - 1}`);
    expect(resumed.body.data.map((c: Change) => c.cursor)).toEqual([newest]);
  });

  it("starts at the oldest change kept without `after` (or with 0), also after the retention deleted older ones", async () => {
    await createProduct();
    const second = await createProduct();
    const newest = await head();
    const kept = (await changesAfter(newest - 1)).map((c) => c.key);
    expect(kept).toEqual([{ id: second.id, code: second.code }]);
    // What the retention does to old entries (src/jobs/retention.ts): the first product's
    // entry, and every one before it, is gone.
    await env.DB.prepare("delete from audit_log where id < ?").bind(newest).run();
    for (const query of ["", "?after=0", "?after=0&limit=1"]) {
      const res = await api("GET", `/v1/api/changes${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body, query).toMatchObject({ next: newest, hasMore: false });
      expect(
        res.body.data.map((c: Change) => [c.cursor, c.key]),
        query,
      ).toEqual([[newest, { id: second.id, code: second.code }]]);
    }
    // A webhook from the start begins there too, and an expired cursor is still refused.
    const body = { url: "http://127.0.0.1:9/hooks", events: ["products"], active: false };
    const hook = await api("POST", "/v1/api/webhooks", { body: { ...body, after: 0 } });
    expect(hook.status).toBe(201);
    expect(hook.body.cursor).toBe(newest - 1);
    const expired = await api("POST", "/v1/api/webhooks", { body: { ...body, after: 1 } });
    expect(issuePaths(expired)).toEqual(["body.after"]);
    expect(expired.body.errors[0].message).toBe(
      `is older than the retention; the oldest cursor served is ${newest - 1}`,
    );
  });
});

describe("ordering under concurrent writes", () => {
  it(
    "a reader following `next` while eight writers write sees every entry once, in id order",
    { timeout: 60_000 },
    async () => {
      const pricelist = await createPricelist();
      const products = await Promise.all(Array.from({ length: 4 }, () => createProduct()));
      const start = await head();
      let writing = true;
      const seen: number[] = [];
      const reader = (async () => {
        let cursor = start;
        for (;;) {
          const last = !writing;
          const res = await api("GET", `/v1/api/changes?after=${cursor}&limit=7`);
          seen.push(...res.body.data.map((c: Change) => c.cursor));
          cursor = res.body.next;
          if (last && !res.body.hasMore) return;
        }
      })();
      const writer = async (w: number) => {
        for (let i = 0; i < 8; i++) {
          // Writes of one to four rows each, so batches of several entries interleave.
          const prices = products
            .slice(0, 1 + ((w + i) % 4))
            .map((p) => ({ productCode: p.code, amount: 100 * w + i + 1 }));
          const res = await api("PUT", `/v1/api/pricelist/${pricelist.id}/prices`, {
            body: { prices },
          });
          expect(res.status).toBe(200);
          await createProduct();
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
      writing = false;
      await reader;
      const { results } = await env.DB.prepare("select id from audit_log where id > ? order by id")
        .bind(start)
        .all<{ id: number }>();
      expect(results.length).toBeGreaterThan(100);
      expect(seen).toEqual(results.map((r) => r.id));
    },
  );
});

describe("affects: whose prices may have moved (docs/api/feed-and-webhooks.md §13.2)", () => {
  it("a pricelist's price names the pricelist, the lists derived from it, and the product", async () => {
    const product = await createProduct();
    const base = await createPricelist();
    const derived = await createPricelist({
      derivation: { basePricelistId: base.id, adjustmentBp: -500 },
    });
    const changes = await changesOf(() =>
      api("PUT", `/v1/api/pricelist/${base.id}/prices`, {
        body: { prices: [{ productCode: product.code, amount: 900 }] },
      }),
    );
    expect(changes.map((c) => c.affects)).toEqual([
      { pricelistIds: [base.id, derived.id].sort((a, b) => a - b), productCodes: [product.code] },
    ]);
  });

  it("records name themselves by code, before and after a change of code", async () => {
    const channel = await createChannel();
    const code = uid("CH");
    const [change] = await changesOf(() =>
      api("PATCH", `/v1/api/channel/${channel.code}`, { body: { code } }),
    );
    expect(change).toMatchObject({ event: "channels", entity: "channel", action: "UPDATE" });
    expect(change!.affects).toEqual({ channelCodes: [channel.code, code].sort() });
  });

  it("a membership names the customer and the group, also when the customer is deleted", async () => {
    const group = await createCustomerGroup();
    const customer = await createCustomer({ customerGroupCodes: [group.code] });
    const changes = await changesOf(() => api("DELETE", `/v1/api/customer/${customer.code}`));
    expect(only(changes, "customerGroupMember")).toEqual([
      expect.objectContaining({
        event: "customers",
        action: "DELETE",
        affects: { customerCodes: [customer.code], customerGroupCodes: [group.code] },
      }),
    ]);
    expect(only(changes, "customer")[0]!.affects).toEqual({ customerCodes: [customer.code] });
  });

  it("a bulk upsert's memberships: one change per customer and action, naming the customer and its groups", async () => {
    const [g1, g2, g3] = await Promise.all([1, 2, 3].map(() => createCustomerGroup()));
    const code = uid("C");
    const put = (groups: string[]) =>
      api("PUT", "/v1/api/customer", {
        body: { customers: [{ code, name: "Bulk", customerGroupCodes: groups }] },
      });
    const created = await changesOf(() => put([g1!.code, g2!.code]));
    const groupCodes = (...groups: (typeof g1)[]) => groups.map((g) => g!.code).sort();
    expect(created.map((c) => [c.action, c.entity, c.event, c.affects])).toEqual([
      ["INSERT", "customer", "customers", { customerCodes: [code] }],
      [
        "INSERT",
        "customerGroupMember",
        "customers",
        { customerCodes: [code], customerGroupCodes: groupCodes(g1, g2) },
      ],
    ]);
    const { id } = (await api("GET", `/v1/api/customer/${code}`)).body;
    expect(created[1]!.key).toEqual({ customerId: id });
    const moved = await changesOf(() => put([g2!.code, g3!.code]));
    expect(moved.map((c) => [c.action, c.entity, c.affects])).toEqual([
      ["DELETE", "customerGroupMember", { customerCodes: [code], customerGroupCodes: [g1!.code] }],
      ["INSERT", "customerGroupMember", { customerCodes: [code], customerGroupCodes: [g3!.code] }],
    ]);
  });

  it("a trade condition reaches its targets: a group's condition → the group, its products", async () => {
    const group = await createCustomerGroup();
    const product = await createProduct();
    const condition = await createTradeCondition({
      scope: "CUSTOMER_GROUP",
      productCodes: [product.code],
    });
    const assigned = await changesOf(() =>
      api("POST", `/v1/api/trade-conditions/${condition.id}/customer-groups`, {
        body: { customerGroupCodes: [group.code] },
      }),
    );
    expect(assigned.map((c) => [c.entity, c.affects])).toEqual([
      [
        "tradeConditionCustomerGroup",
        { productCodes: [product.code], customerGroupCodes: [group.code] },
      ],
    ]);
    const changed = await changesOf(() =>
      api("PATCH", `/v1/api/trade-conditions/${condition.id}`, { body: { value: 700 } }),
    );
    expect(changed.map((c) => [c.event, c.entity, c.affects])).toEqual([
      [
        "tradeConditions",
        "tradeCondition",
        { productCodes: [product.code], customerGroupCodes: [group.code] },
      ],
    ]);
  });

  it("a GLOBAL condition without products or channels reaches every price", async () => {
    const condition = await createTradeCondition();
    const [change] = await changesOf(() =>
      api("PATCH", `/v1/api/trade-conditions/${condition.id}`, { body: { value: 600 } }),
    );
    expect(change!.affects).toEqual({});
  });

  it("a link reaches only its own target; a list that becomes empty reaches all; a rewritten list nothing new", async () => {
    const [a, b, c] = [await createProduct(), await createProduct(), await createProduct()];
    const channel = await createChannel();
    const promotion = await createPromotion({
      productCodes: [a.code, b.code],
      channelCodes: [channel.code],
    });
    const patch = (body: unknown) =>
      changesOf(() => api("PATCH", `/v1/api/promotion/${promotion.id}`, { body }));

    // The list is written again (DELETE and INSERT of every link): only c really changed.
    const added = await patch({ productCodes: [a.code, b.code, c.code] });
    const links = only(added, "promotionProduct");
    expect(links.length).toBe(5);
    const reached = links.map((l) => l.affects.productCodes ?? "all").flat();
    expect([...new Set(reached)]).toEqual([c.code]);
    for (const link of links) expect(link.affects.channelCodes).toEqual([channel.code]);

    // Emptied: the promotion now reaches every product.
    const emptied = await patch({ productCodes: [] });
    expect(only(emptied, "promotionProduct").map((l) => l.affects)).toEqual(
      Array(3).fill({ channelCodes: [channel.code] }),
    );
  });

  it("a product group names its products by the group", async () => {
    const parent = await createProductGroup();
    const group = await createProductGroup();
    const [change] = await changesOf(() =>
      api("PATCH", `/v1/api/product-group/${group.code}`, { body: { parentCode: parent.code } }),
    );
    expect(change).toMatchObject({ event: "productGroups", entity: "productGroup" });
    expect(change!.affects).toEqual({ productGroupCodes: [group.code] });
  });

  it("a change is described as it was: a later edit of the targets does not rewrite it", async () => {
    const [g1, g2] = [await createCustomerGroup(), await createCustomerGroup()];
    const condition = await createTradeCondition({ scope: "CUSTOMER_GROUP" });
    const assign = (code: string) =>
      api("POST", `/v1/api/trade-conditions/${condition.id}/customer-groups`, {
        body: { customerGroupCodes: [code] },
      });
    await assign(g1.code);
    const start = await head();
    await api("PATCH", `/v1/api/trade-conditions/${condition.id}`, { body: { value: 800 } });
    await api("POST", `/v1/api/trade-conditions/${condition.id}/customer-groups/unassign`, {
      body: { customerGroupCodes: [g1.code] },
    });
    await assign(g2.code);
    const changes = await changesAfter(start);
    expect(changes.map((c) => [c.entity, c.action, c.affects.customerGroupCodes])).toEqual([
      ["tradeCondition", "UPDATE", [g1.code]],
      ["tradeConditionCustomerGroup", "DELETE", [g1.code]],
      ["tradeConditionCustomerGroup", "INSERT", [g2.code]],
    ]);
  });
});

describe("the feed's entities", () => {
  it("has an event and an affects rule for every audited table", () => {
    expect(Object.keys(ENTITIES).sort()).toEqual([...AUDIT_ENTITIES].sort());
  });
});
