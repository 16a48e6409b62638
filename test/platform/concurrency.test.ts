import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it, vi } from "vitest";
import { api as viaEntrypoint, expectProblem, uid, type ApiResponse } from "../shared/helpers";
import { factoriesVia } from "../factories";
import { call as api } from "../fuzz/worker";

/**
 * Races through the real Worker: N requests at once (Promise.all). The pool runs them in one
 * workerd, so D1 executes one statement or batch at a time; what interleaves is each request's
 * read-then-write steps (its reads and its batch are separate awaits), so all N usually read the
 * same state before any of them writes. Every test asserts what a serial execution would allow:
 * no 5xx, no duplicates, no lost update beyond last-writer-wins on the same row, every answer
 * consistent with the final state.
 *
 * Requests go to the Worker's fetch handler (test/fuzz/worker.ts explains why not through the
 * pool's loopback, whose cost grows with every request); one race also runs through
 * `exports.default.fetch` to show the entrypoint behaves the same.
 */
const N = 50;
const stats = { races: 0, requests: 0 };

/** Runs `n` requests at once; request i is `make(i)`. */
async function race(n: number, make: (i: number) => Promise<ApiResponse>) {
  stats.races++;
  stats.requests += n;
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => make(i)));
  for (const res of answers) {
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    }
  }
  return answers;
}

/**
 * Sends a request one D1 round trip late. Requests with a body reach D1 a step after bodiless
 * ones (the body is read first), so a late DELETE lands after the others' checks and before
 * their writes: the gap a read-then-write request has to survive.
 */
const late = (send: () => Promise<ApiResponse>) =>
  api("GET", "/v1/api/channel/LATE-BY-ONE-READ").then(send);

const count = (answers: ApiResponse[], status: number) =>
  answers.filter((r) => r.status === status).length;

async function created(path: string, body: unknown) {
  const res = await api("POST", path, { body });
  if (res.status !== 201)
    throw new Error(`POST ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function rows(query: string, ...params: unknown[]) {
  const { results } = await env.DB.prepare(query)
    .bind(...params)
    .all<Record<string, unknown>>();
  return results;
}

const {
  createProduct,
  createChannel,
  createCustomerGroup,
  createCustomer,
  createPricelist,
  createIndividualPricelist,
  createTradeCondition,
  createPromotion,
} = factoriesVia(created);

vi.setConfig({ testTimeout: 60_000 });

describe("the same assignment N times at once", () => {
  it("links once: exactly one answer assigns, the others skip, and one link row exists", async () => {
    const [ch, g1, g2] = [
      await createChannel(),
      await createCustomerGroup(),
      await createCustomerGroup(),
    ];
    const tc = await createTradeCondition({ scope: "CUSTOMER_GROUP" });
    const pl = await createPricelist();
    const [c1, c2] = [await createCustomer(), await createCustomer()];
    const cases = [
      {
        path: `/v1/api/channel/${ch.code}/customer-group`,
        body: { customerGroupCodes: [g1.code, g2.code, "NOPE-RACE"] },
        links: () => rows("select * from channel_customer_groups where channel_id = ?", ch.id),
      },
      {
        path: `/v1/api/customer-group/${g1.code}/customer`,
        body: { customerCodes: [c1.code, c2.code, "NOPE-RACE"] },
        links: () =>
          rows("select * from customer_group_members where customer_group_id = ?", g1.id),
      },
      {
        path: `/v1/api/trade-conditions/${tc.id}/customer-groups`,
        body: { customerGroupCodes: [g1.code, g2.code, "NOPE-RACE"] },
        links: () =>
          rows("select * from trade_condition_customer_groups where trade_condition_id = ?", tc.id),
      },
      {
        path: `/v1/api/pricelist/${pl.id}/customer-groups`,
        body: { customerGroupCodes: [g1.code, g2.code, "NOPE-RACE"] },
        links: () => rows("select * from customer_group_pricelists where pricelist_id = ?", pl.id),
      },
    ];
    for (const { path, body, links } of cases) {
      const codes = Object.values(body)[0]!;
      const answers = await race(N, () => api("POST", path, { body }));
      expect(count(answers, 201), path).toBe(N);
      const assigning = answers.filter((r) => r.body.assigned.length > 0);
      expect(assigning, path).toHaveLength(1);
      expect(assigning[0]!.body.assigned).toEqual(codes.slice(0, 2));
      for (const res of answers) {
        expect(res.body.notFound).toEqual(["NOPE-RACE"]);
        if (res !== assigning[0]) expect(res.body.skipped).toEqual(codes);
      }
      expect(await links(), path).toHaveLength(2);

      // And the same unassignment N times: every answer names the existing codes, no link is left.
      const undo = await race(N, () => api("POST", `${path}/unassign`, { body }));
      for (const res of undo) {
        expect(res.status).toBe(200);
        expect(res.body.unassigned).toEqual(codes.slice(0, 2));
      }
      expect(await links()).toHaveLength(0);
    }
  });
});

describe("the same price upsert N times at once", () => {
  it("identical sheets: every answer 200, one row per (product, minQuantity)", async () => {
    const pl = await createPricelist();
    const [p1, p2] = [await createProduct(), await createProduct()];
    const prices = [
      { productCode: p1.code, amount: 1000 },
      { productCode: p1.code, minQuantity: 10, amount: 900 },
      { productCode: p2.code, amount: 500 },
    ];
    const answers = await race(N, () =>
      api("PUT", `/v1/api/pricelist/${pl.id}/prices`, { body: { prices } }),
    );
    for (const res of answers) expect(res.body).toEqual({ upserted: 3, closed: 0 });
    const stored = await rows(
      "select product_id, min_quantity, amount from pricelist_prices where pricelist_id = ? order by product_id, min_quantity",
      pl.id,
    );
    expect(stored).toEqual([
      { product_id: p1.id, min_quantity: 1, amount: 1000 },
      { product_id: p1.id, min_quantity: 10, amount: 900 },
      { product_id: p2.id, min_quantity: 1, amount: 500 },
    ]);
  });

  it("conflicting amounts: last writer wins per sheet, never a mix of two requests", async () => {
    const pl = await createPricelist();
    const [p1, p2] = [await createProduct(), await createProduct()];
    // Request i writes amount 10000 + i on every row, so a torn sheet would show two values.
    const answers = await race(N, (i) =>
      api("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
        body: {
          prices: [
            { productCode: p1.code, amount: 10_000 + i },
            { productCode: p1.code, minQuantity: 5, amount: 10_000 + i },
            { productCode: p2.code, amount: 10_000 + i },
          ],
        },
      }),
    );
    expect(count(answers, 200)).toBe(N);
    const stored = await rows(
      "select product_id, min_quantity, amount from pricelist_prices where pricelist_id = ?",
      pl.id,
    );
    expect(stored).toHaveLength(3);
    const amounts = new Set(stored.map((r) => r.amount));
    expect(amounts.size).toBe(1);
    const [amount] = [...amounts] as number[];
    expect(amount).toBeGreaterThanOrEqual(10_000);
    expect(amount).toBeLessThan(10_000 + N);
  });

  it("a product deleted while its prices are written: either the prices or the product, never a 5xx", async () => {
    const pl = await createPricelist();
    const product = await createProduct();
    const answers = await race(N, (i) =>
      i % 2
        ? late(() => api("DELETE", `/v1/api/product/${product.code}`))
        : api("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
            body: { prices: [{ productCode: product.code, amount: 100 + i }] },
          }),
    );
    const deletes = answers.filter((_, i) => i % 2);
    const upserts = answers.filter((_, i) => !(i % 2));
    const stored = await rows("select * from pricelist_prices where pricelist_id = ?", pl.id);
    const exists = (await api("GET", `/v1/api/product/${product.code}`)).status === 200;
    if (exists) {
      // The product survived: no delete succeeded, and the sheet holds a written price.
      expect(count(deletes, 204)).toBe(0);
      if (count(upserts, 200) > 0) expect(stored).toHaveLength(1);
    } else {
      // The product went first: no price for it may remain, and exactly one delete succeeded.
      expect(count(deletes, 204)).toBe(1);
      expect(stored).toHaveLength(0);
    }
    for (const res of upserts) expect([200, 400, 409]).toContain(res.status);
    for (const res of deletes) expect([204, 404, 409]).toContain(res.status);
  });
});

describe("create with the same code N times at once", () => {
  it("exactly one 201 and N-1 problem+json 409s per resource; one record", async () => {
    const g = await createCustomerGroup();
    const ch = await createChannel();
    const cases: [string, Record<string, unknown>, string][] = [
      ["/v1/api/product", { name: "Race product" }, "products"],
      ["/v1/api/channel", { name: "Race channel" }, "channels"],
      ["/v1/api/customer-group", { name: "Race group" }, "customer_groups"],
      [
        "/v1/api/customer",
        { name: "Race customer", customerGroupCodes: [g.code], channelCodes: [ch.code] },
        "customers",
      ],
    ];
    for (const [path, body, table] of cases) {
      const code = uid("SAME");
      const answers = await race(N, () => api("POST", path, { body: { code, ...body } }));
      expect(count(answers, 201), path).toBe(1);
      expect(count(answers, 409), path).toBe(N - 1);
      for (const res of answers.filter((r) => r.status === 409)) {
        expect(expectProblem(res, 409, "CONFLICT").detail).toContain(code);
      }
      expect(await rows(`select id from ${table} where code = ?`, code)).toHaveLength(1);
    }
    // The customer's memberships were written once, by the create that won.
    expect(
      await rows("select * from customer_group_members where customer_group_id = ?", g.id),
    ).toHaveLength(1);
    expect(await rows("select * from channel_customers where channel_id = ?", ch.id)).toHaveLength(
      1,
    );
  });

  it("the same through exports.default.fetch (the pool's real entrypoint)", async () => {
    const code = uid("SAME");
    const answers = await race(N, () =>
      viaEntrypoint("POST", "/v1/api/channel", { body: { code, name: "Entry" } }),
    );
    expect(count(answers, 201)).toBe(1);
    expect(count(answers, 409)).toBe(N - 1);
    expect(await rows("select id from channels where code = ?", code)).toHaveLength(1);
  });

  it("N renames to the same code: one 200, N-1 409s", async () => {
    const channels = await Promise.all(Array.from({ length: N }, () => createChannel()));
    const code = uid("RENAMED");
    const answers = await race(N, (i) =>
      api("PATCH", `/v1/api/channel/${channels[i]!.code}`, { body: { code } }),
    );
    expect(count(answers, 200)).toBe(1);
    expect(count(answers, 409)).toBe(N - 1);
    expect(await rows("select id from channels where code = ?", code)).toHaveLength(1);
  });
});

const NEXT: Record<string, string[]> = {
  DRAFT: ["ACTIVE", "ARCHIVED"],
  ACTIVE: ["INACTIVE", "ARCHIVED"],
  INACTIVE: ["ACTIVE", "ARCHIVED"],
  ARCHIVED: [],
};

/**
 * The PATCH answers of a race tell one serial story: an ARCHIVED answer is the final record
 * (nothing changes an ARCHIVED record); the successful answers, in write order (updatedAt moves
 * forward with every update), walk allowed status steps and end in the final record; every
 * refusal is a 409 that says why.
 */
function assertHistory(initial: any, answers: ApiResponse[], final: any) {
  const ok = answers.filter((r) => r.status === 200).map((r) => r.body);
  const archived = ok.find((b) => b.status === "ARCHIVED");
  if (archived) expect(final).toEqual(archived);
  // A no-op PATCH answers the version it found; answers with one updatedAt are one version.
  const versions = new Map<string, any>();
  for (const answer of ok) {
    expect(answer, "one version per updatedAt").toEqual(versions.get(answer.updatedAt) ?? answer);
    versions.set(answer.updatedAt, answer);
  }
  const history = [...versions.values()].sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : 1));
  expect(final).toEqual(history.at(-1) ?? initial);
  let previous = initial.status as string;
  for (const answer of history) {
    if (answer.updatedAt !== initial.updatedAt) {
      expect(previous, "nothing after ARCHIVED").not.toBe("ARCHIVED");
    }
    expect([previous, ...NEXT[previous]!]).toContain(answer.status);
    previous = answer.status;
  }
  for (const res of answers.filter((r) => r.status !== 200)) {
    expect(res.status).toBe(409);
    expect(["INVALID_STATUS_TRANSITION", "CONFLICT", "CONCURRENT_UPDATE"]).toContain(res.body.code);
  }
}

describe("status changes racing deletes and each other", () => {
  it("PATCH status vs DELETE of a DRAFT individual pricelist: the answers tell one story", async () => {
    const owner = await createCustomer();
    const pl = await createIndividualPricelist(owner.code);
    const answers = await race(N, (i) =>
      i % 2
        ? late(() => api("DELETE", `/v1/api/pricelist/individual/${pl.id}`))
        : api("PATCH", `/v1/api/pricelist/${pl.id}`, { body: { status: "ACTIVE" } }),
    );
    const deletes = answers.filter((_, i) => i % 2);
    const patches = answers.filter((_, i) => !(i % 2));
    const final = await api("GET", `/v1/api/pricelist/${pl.id}`);
    if (final.status === 404) {
      // Deleted while DRAFT: one 204; no PATCH may claim to have activated it.
      expect(count(deletes, 204)).toBe(1);
      expect(count(deletes, 404)).toBe(deletes.length - 1);
      expect(count(patches, 200)).toBe(0);
      expect(count(patches, 404)).toBe(patches.length);
    } else {
      // Activated first: nothing deleted; every DELETE saw it ACTIVE.
      expect(final.body.status).toBe("ACTIVE");
      expect(count(deletes, 409)).toBe(deletes.length);
      for (const res of patches) expect(res.body.status).toBe("ACTIVE");
    }
    expect(await rows("select * from pricelist_prices where pricelist_id = ?", pl.id)).toEqual([]);
  });

  const statusTargets = [
    ["pricelist", () => createPricelist({ status: "ACTIVE" })],
    ["trade-conditions", () => createTradeCondition({ status: "ACTIVE" })],
    ["promotion", () => createPromotion({ status: "ACTIVE" })],
  ] as const;

  for (const [resource, make] of statusTargets) {
    it.each([0, 1])(
      `${resource}: ARCHIVED is final even when INACTIVE races it (%i)`,
      async (flip) => {
        const record = await make();
        const answers = await race(N, (i) =>
          api("PATCH", `/v1/api/${resource}/${record.id}`, {
            body: { status: (i + flip) % 2 ? "ARCHIVED" : "INACTIVE" },
          }),
        );
        const final = (await api("GET", `/v1/api/${resource}/${record.id}`)).body;
        assertHistory(record, answers, final);
      },
    );

    it(`${resource}: a rename racing the archive is either before it or refused`, async () => {
      const record = await make();
      const answers = await race(N, (i) =>
        api("PATCH", `/v1/api/${resource}/${record.id}`, {
          body: i === N / 2 ? { status: "ARCHIVED" } : { name: `Renamed ${i}` },
        }),
      );
      const final = (await api("GET", `/v1/api/${resource}/${record.id}`)).body;
      assertHistory(record, answers, final);
    });
  }

  it.each([0, 1])(
    "pricelist: PATCH validFrom racing PATCH validTo never stores validFrom >= validTo (%i)",
    async (flip) => {
      const pl = await createPricelist({ validFrom: "2025-01-01T00:00:00Z" });
      await race(N, (i) =>
        api("PATCH", `/v1/api/pricelist/${pl.id}`, {
          body:
            (i + flip) % 2
              ? { validTo: "2025-06-01T00:00:00Z" }
              : { validFrom: "2025-09-01T00:00:00Z" },
        }),
      );
      const final = (await api("GET", `/v1/api/pricelist/${pl.id}`)).body;
      if (final.validTo !== null) expect(final.validFrom < final.validTo).toBe(true);
    },
  );

  it.each([
    ["trade-conditions", 0],
    ["trade-conditions", 1],
    ["promotion", 0],
    ["promotion", 1],
  ])(
    "%s: two PATCHes valid alone never store an invalid merged record (%i)",
    async (resource, flip) => {
      // Alone, each is fine; after the other, the second must be refused (ABSOLUTE needs a currency).
      const record =
        resource === "promotion" ? await createPromotion() : await createTradeCondition();
      await race(N, (i) =>
        api("PATCH", `/v1/api/${resource}/${record.id}`, {
          body:
            (i + flip) % 2
              ? { discountType: "ABSOLUTE", value: 250, currency: "EUR" }
              : { currency: null },
        }),
      );
      const final = (await api("GET", `/v1/api/${resource}/${record.id}`)).body;
      if (final.discountType === "ABSOLUTE") expect(final.currency).toBe("EUR");
      else expect(final.currency).toBeNull();
    },
  );

  // Flip 1: the scope change writes between an assignment's check and its insert; the insert's
  // guard re-checks the scope, so no target is stranded.
  it.each([0, 1])(
    "trade condition: a scope change racing a target assignment leaves no stranded targets (%i)",
    async (flip) => {
      const g = await createCustomerGroup();
      const tc = await createTradeCondition({ scope: "CUSTOMER_GROUP" });
      const answers = await race(N, (i) =>
        (i + flip) % 2
          ? api("PATCH", `/v1/api/trade-conditions/${tc.id}`, { body: { scope: "GLOBAL" } })
          : api("POST", `/v1/api/trade-conditions/${tc.id}/customer-groups`, {
              body: { customerGroupCodes: [g.code] },
            }),
      );
      const final = (await api("GET", `/v1/api/trade-conditions/${tc.id}`)).body;
      if (final.scope !== "CUSTOMER_GROUP") expect(final.customerGroupCodes).toEqual([]);
      else
        expect(
          count(
            answers.filter((_, i) => (i + flip) % 2),
            200,
          ),
        ).toBe(0);
    },
  );
});

describe("an individual pricelist deleted while being assigned", () => {
  it("assign to its owner vs DELETE: one 204, no link left, no 5xx", async () => {
    const owner = await createCustomer();
    const other = await createCustomer();
    const ch = await createChannel();
    const pl = await createIndividualPricelist(owner.code);
    const answers = await race(N, (i) => {
      switch (i % 4) {
        case 0:
          return late(() => api("DELETE", `/v1/api/pricelist/individual/${pl.id}`));
        case 1:
          return api("POST", `/v1/api/customer/${owner.code}/pricelist`, {
            body: { pricelistId: pl.id },
          });
        case 2:
          return api("POST", `/v1/api/customer/${other.code}/pricelist`, {
            body: { pricelistId: pl.id },
          });
        default:
          return api("POST", `/v1/api/channel/${ch.code}/pricelist`, {
            body: { pricelistId: pl.id },
          });
      }
    });
    const of = (k: number) => answers.filter((_, i) => i % 4 === k);
    expect(count(of(0), 204)).toBe(1);
    expect(count(of(0), 404)).toBe(of(0).length - 1);
    for (const res of of(1)) expect([201, 404]).toContain(res.status);
    // Never assignable elsewhere: 409 while it exists, 404 once gone.
    for (const res of [...of(2), ...of(3)]) expect([409, 404]).toContain(res.status);
    expect((await api("GET", `/v1/api/pricelist/${pl.id}`)).status).toBe(404);
    for (const table of [
      "customer_pricelists",
      "channel_pricelists",
      "customer_group_pricelists",
    ]) {
      expect(await rows(`select * from ${table} where pricelist_id = ?`, pl.id)).toEqual([]);
    }
    expect((await api("GET", `/v1/api/customer/${owner.code}`)).body.pricelists).toEqual([]);
  });

  it("a customer deleted while a pricelist is assigned to it: one 204, no orphan link", async () => {
    const c = await createCustomer();
    const pl = await createPricelist({ status: "ACTIVE" });
    const answers = await race(N, (i) =>
      i % 2
        ? late(() => api("DELETE", `/v1/api/customer/${c.code}`))
        : api("POST", `/v1/api/customer/${c.code}/pricelist`, { body: { pricelistId: pl.id } }),
    );
    const deletes = answers.filter((_, i) => i % 2);
    const assigns = answers.filter((_, i) => !(i % 2));
    expect(count(deletes, 204)).toBe(1);
    for (const res of assigns) {
      expect([201, 404]).toContain(res.status);
      if (res.status === 404) expect(res.body.detail).toBe(`customer ${c.code} not found`);
    }
    expect(await rows("select * from customer_pricelists where pricelist_id = ?", pl.id)).toEqual(
      [],
    );
  });
});

describe("a record deleted while links to it are written", () => {
  it("a channel deleted during its assignments and a customer create naming it: 404/400/409, never 5xx", async () => {
    const ch = await createChannel();
    const [g, c] = [await createCustomerGroup(), await createCustomer()];
    const pl = await createPricelist({ status: "ACTIVE" });
    const answers = await race(N, (i) => {
      switch (i % 6) {
        case 0:
          return late(() => api("DELETE", `/v1/api/channel/${ch.code}`));
        case 1:
          return api("POST", `/v1/api/channel/${ch.code}/customer-group`, {
            body: { customerGroupCodes: [g.code] },
          });
        case 2:
          return api("POST", `/v1/api/channel/${ch.code}/customer`, {
            body: { customerCodes: [c.code] },
          });
        case 3:
          return api("POST", `/v1/api/channel/${ch.code}/pricelist`, {
            body: { pricelistId: pl.id },
          });
        case 4:
          return api("PUT", `/v1/api/channel/${ch.code}/pricelist/primary`, {
            body: { pricelistId: pl.id },
          });
        default:
          return api("POST", "/v1/api/customer", {
            body: { code: uid("RC"), name: "Late", channelCodes: [ch.code] },
          });
      }
    });
    const of = (k: number) => answers.filter((_, i) => i % 6 === k);
    expect(count(of(0), 204)).toBe(1);
    for (const res of of(0)) expect([204, 404]).toContain(res.status);
    for (const res of of(1)) expect([201, 404]).toContain(res.status);
    for (const res of of(2)) expect([201, 404]).toContain(res.status);
    for (const res of of(3)) expect([201, 404]).toContain(res.status);
    for (const res of of(4)) expect([200, 404]).toContain(res.status);
    for (const res of of(5)) expect([201, 400, 409]).toContain(res.status);
    for (const table of ["channel_customer_groups", "channel_customers", "channel_pricelists"]) {
      expect(await rows(`select * from ${table} where channel_id = ?`, ch.id)).toEqual([]);
    }
  });
});

describe("a customer deleted while it is written to", () => {
  it("individual pricelists created for it, PATCHes and memberships: 201/200 or 400/404, never 5xx", async () => {
    const c = await createCustomer();
    const [g, ch] = [await createCustomerGroup(), await createChannel()];
    const answers = await race(N, (i) => {
      switch (i % 5) {
        case 0:
          return late(() => api("DELETE", `/v1/api/customer/${c.code}`));
        case 1:
          return api("POST", "/v1/api/pricelist/individual", {
            body: { customerCode: c.code, name: "Own", currency: "EUR" },
          });
        case 2:
          return api("PATCH", `/v1/api/customer/${c.code}`, {
            body: { name: `Renamed ${i}`, customerGroupCodes: [g.code], channelCodes: [ch.code] },
          });
        case 3:
          return api("POST", `/v1/api/customer-group/${g.code}/customer`, {
            body: { customerCodes: [c.code] },
          });
        default:
          return api("POST", `/v1/api/channel/${ch.code}/customer`, {
            body: { customerCodes: [c.code] },
          });
      }
    });
    const of = (k: number) => answers.filter((_, i) => i % 5 === k);
    expect(count(of(0), 204)).toBe(1);
    for (const res of of(1)) expect([201, 400]).toContain(res.status);
    for (const res of of(2)) expect([200, 404]).toContain(res.status);
    for (const res of [...of(3), ...of(4)]) expect(res.status).toBe(201);
    // Everything of the customer went with it.
    expect(await rows("select id from pricelists where customer_id = ?", c.id)).toEqual([]);
    expect(await rows("select * from customer_group_members where customer_id = ?", c.id)).toEqual(
      [],
    );
    expect(await rows("select * from channel_customers where customer_id = ?", c.id)).toEqual([]);
  });
});

describe("named records deleted while conditions, promotions and customers name them", () => {
  it("product and channel deleted late: creates and PATCHes answer 2xx, 400 or 409, never 5xx", async () => {
    const [p, ch] = [await createProduct(), await createChannel()];
    const tc = await createTradeCondition();
    const pr = await createPromotion();
    const c = await createCustomer();
    const answers = await race(N, (i) => {
      switch (i % 8) {
        case 0:
          return late(() => api("DELETE", `/v1/api/product/${p.code}`));
        case 1:
          return late(() => api("DELETE", `/v1/api/channel/${ch.code}`));
        case 2:
          return api("POST", "/v1/api/trade-conditions", {
            body: {
              name: "Named",
              scope: "CHANNEL",
              type: "DISCOUNT",
              discountType: "PERCENTAGE",
              value: 100,
              productCodes: [p.code],
              channelCodes: [ch.code],
            },
          });
        case 3:
          return api("POST", "/v1/api/promotion", {
            body: {
              name: "Named",
              discountType: "PERCENTAGE",
              value: 100,
              productCodes: [p.code],
              channelCodes: [ch.code],
            },
          });
        case 4:
          return api("PATCH", `/v1/api/trade-conditions/${tc.id}`, {
            body: { productCodes: [p.code], channelCodes: [ch.code] },
          });
        case 5:
          return api("PATCH", `/v1/api/promotion/${pr.id}`, {
            body: { productCodes: [p.code], channelCodes: [ch.code] },
          });
        case 6:
          return api("PATCH", `/v1/api/customer/${c.code}`, { body: { channelCodes: [ch.code] } });
        default:
          return api("PUT", `/v1/api/channel/${ch.code}/pricelist/primary`, {
            body: { pricelistId: 999_999 },
          });
      }
    });
    const of = (k: number) => answers.filter((_, i) => i % 8 === k);
    for (const res of [...of(0), ...of(1)]) expect([204, 404, 409]).toContain(res.status);
    for (const res of [...of(2), ...of(3)]) expect([201, 400, 409]).toContain(res.status);
    for (const res of [...of(4), ...of(5), ...of(6)]) expect([200, 400, 409]).toContain(res.status);
    for (const res of of(7)) expect(res.status).toBe(404);
  });
});

afterAll(() => {
  console.log(`concurrency: ${stats.races} races, ${stats.requests} racing requests`);
});
