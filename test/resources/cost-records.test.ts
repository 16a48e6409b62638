import { describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
  createProduct,
  createTradeCondition,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS } from "../shared/helpers";

/**
 * COST pricelists and ACCRUAL trade conditions through the API (docs/api/relations.md §5.8,
 * docs/api/access.md §18, docs/pricing-rules.md §23–§25): their write rules, and that a read key
 * never sees them.
 */

const PL = "/v1/api/pricelist";
const TC = "/v1/api/trade-conditions";
const patchList = (id: number, body: unknown) => api("PATCH", `${PL}/${id}`, { body });
const asRead = (path: string, headers: Record<string, string> = {}) =>
  api("GET", path, { key: KEYS.read, headers });

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

describe("COST pricelists: what they may be (docs/api/relations.md §5.8)", () => {
  it("creates a COST list, and an INDIVIDUAL list is never one (400 naming the field)", async () => {
    const cost = await createPricelist({ kind: "COST" });
    expect(cost).toMatchObject({ kind: "COST", scope: "GENERAL", derivation: null });
    const own = await createIndividualPricelist((await createCustomer()).code);
    expect(
      expectProblem(await patchList(own.id, { kind: "COST" }), 400, "VALIDATION_FAILED"),
    ).toMatchObject({
      errors: [
        {
          path: "body.kind",
          message:
            "must be SALES for an INDIVIDUAL pricelist (FLOOR and COST pricelists are assigned to channels)",
        },
      ],
    });
  });

  it("is assigned to channels only: never primary, never to groups or customers (409)", async () => {
    const cost = await createPricelist({ kind: "COST" });
    const channel = await createChannel();
    await assignPricelistToChannel(channel.code, cost.id);
    const group = await createCustomerGroup();
    const customer = await createCustomer();
    const refusals = [
      ["PUT", `/v1/api/channel/${channel.code}/pricelist/primary`, "made the primary pricelist of"],
      ["POST", `/v1/api/customer-group/${group.code}/pricelist`, "assigned to customer group"],
      ["POST", `/v1/api/customer/${customer.code}/pricelist`, "assigned to customer"],
    ] as const;
    for (const [method, path, words] of refusals) {
      const res = await api(method, path, { body: { pricelistId: cost.id } });
      const detail = expectProblem(res, 409, "PRICELIST_NOT_ASSIGNABLE").detail;
      expect(detail).toContain(`pricelist ${cost.id} is a COST pricelist and cannot be ${words}`);
      expect(detail).toContain(
        "COST pricelists are assigned to channels only, never as their primary",
      );
    }
    const bulk = await api("POST", `${PL}/${cost.id}/customer-groups`, {
      body: { customerGroupCodes: [group.code] },
    });
    expectProblem(bulk, 409, "PRICELIST_NOT_ASSIGNABLE");
  });

  it("a SALES list assigned to a group cannot become COST (409 naming where)", async () => {
    const pl = await createPricelist();
    const group = await createCustomerGroup();
    await ok("POST", `/v1/api/customer-group/${group.code}/pricelist`, { pricelistId: pl.id });
    const res = await patchList(pl.id, { kind: "COST" });
    expect(expectProblem(res, 409, "PRICELIST_NOT_ASSIGNABLE").detail).toBe(
      `pricelist ${pl.id} is assigned to customer groups ${group.code}; a COST pricelist is ` +
        "assigned to channels only and never primary: unassign it there first",
    );
  });

  it("never derives (400), and is never the base of a SALES list (409)", async () => {
    const sales = await createPricelist();
    const derivation = { basePricelistId: sales.id, adjustmentBp: 0 };
    const derivedCost = await api("POST", PL, {
      body: { name: "x", currency: "EUR", kind: "COST", derivation },
    });
    expect(expectProblem(derivedCost, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.derivation",
        message: "only GENERAL SALES and FLOOR pricelists can be derived; this one is COST",
      },
    ]);
    const derived = await createPricelist({ derivation });
    expect(issuePaths(await patchList(derived.id, { kind: "COST" }))).toEqual(["body.kind"]);
    const cost = await createPricelist({ kind: "COST" });
    const fromCost = await api("POST", PL, {
      body: {
        name: "x",
        currency: "EUR",
        derivation: { basePricelistId: cost.id, adjustmentBp: 0 },
      },
    });
    expect(expectProblem(fromCost, 409, "CONFLICT").detail).toBe(
      `pricelist ${cost.id} is GENERAL COST; a cost is never a price: only a FLOOR pricelist can ` +
        "derive from a COST pricelist",
    );
  });
});

describe("FLOOR lists derived from a COST list (docs/pricing-rules.md §24)", () => {
  it("derive from a COST list only; the COST list's kind and currency then stay", async () => {
    const cost = await createPricelist({ kind: "COST" });
    const floor = await createPricelist({
      kind: "FLOOR",
      derivation: {
        basePricelistId: cost.id,
        adjustmentBp: 1000,
        rounding: { mode: "UP", step: 10, ending: 9 },
      },
    });
    expect(floor.derivation).toEqual({
      basePricelistId: cost.id,
      adjustmentBp: 1000,
      rounding: { mode: "UP", step: 10, ending: 9 },
    });
    const sales = await createPricelist();
    const fromSales = await patchList(floor.id, {
      derivation: { basePricelistId: sales.id, adjustmentBp: 0 },
    });
    expect(expectProblem(fromSales, 409, "CONFLICT").detail).toBe(
      `pricelist ${sales.id} is GENERAL SALES; a FLOOR pricelist derives only from a COST pricelist`,
    );
    // The floor made SALES would derive a price from a cost.
    expectProblem(await patchList(floor.id, { kind: "SALES" }), 409, "CONFLICT");
    const baseKind = await patchList(cost.id, { kind: "SALES" });
    expect(expectProblem(baseKind, 409, "CONFLICT").detail).toBe(
      `pricelist ${cost.id} is the base of pricelist ${floor.id}; its kind cannot change while they derive from it`,
    );
    expect((await patchList(floor.id, { derivation: null })).body.derivation).toBeNull();
  });
});

describe("ACCRUAL trade conditions (docs/pricing-rules.md §25)", () => {
  it("are created like any condition, never stackable (400)", async () => {
    const accrual = await createTradeCondition({ type: "ACCRUAL", value: 200 });
    expect(accrual).toMatchObject({
      type: "ACCRUAL",
      discountType: "PERCENTAGE",
      stackable: false,
    });
    const stackable = await api("POST", TC, {
      body: {
        name: "x",
        scope: "GLOBAL",
        type: "ACCRUAL",
        discountType: "PERCENTAGE",
        value: 200,
        stackable: true,
      },
    });
    expect(expectProblem(stackable, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.stackable",
        message: "must be false for an ACCRUAL condition (every accrual reaching a line applies)",
      },
    ]);
    const absolute = await createTradeCondition({
      type: "ACCRUAL",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 15,
      priceUnit: 100,
    });
    expect(absolute).toMatchObject({ type: "ACCRUAL", value: 15, priceUnit: 100 });
    const made = await api(
      "PATCH",
      `${TC}/${(await createTradeCondition({ stackable: true })).id}`,
      {
        body: { type: "ACCRUAL" },
      },
    );
    expect(issuePaths(made)).toEqual(["body.stackable"]);
  });
});

describe("a read key never sees a COST pricelist or an ACCRUAL condition (docs/api/access.md §18)", () => {
  it("pricelists: absent from the lists and their counts, 404 by id as if they did not exist", async () => {
    const channel = await createChannel();
    const product = await createProduct();
    const cost = await createPricelist({ kind: "COST", name: `Cost ${channel.code}` });
    await ok("PUT", `${PL}/${cost.id}/prices`, {
      prices: [{ productCode: product.code, amount: 4321 }],
    });
    await assignPricelistToChannel(channel.code, cost.id);
    const floor = await createPricelist({
      kind: "FLOOR",
      derivation: { basePricelistId: cost.id, adjustmentBp: 1000 },
    });
    await assignPricelistToChannel(channel.code, floor.id);

    const search = `${PL}?search=${encodeURIComponent(`Cost ${channel.code}`)}`;
    expect((await api("GET", search)).body.meta.totalItems).toBe(1);
    expect((await asRead(search)).body).toMatchObject({ data: [], meta: { totalItems: 0 } });
    const unknown = await asRead(`${PL}/999999999`);
    for (const path of [
      `${PL}/${cost.id}`,
      `${PL}/${cost.id}/prices`,
      `${PL}/${cost.id}/customers`,
    ]) {
      const res = await asRead(path);
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(`pricelist ${cost.id} not found`);
      expect((await api("GET", path)).status).toBe(200);
    }
    expect(unknown.status).toBe(404);

    const assigned = (key: string) =>
      api("GET", `/v1/api/channel/${channel.code}/pricelists`, { key });
    const idsOf = (body: any) =>
      body.data.map((p: any) => p.id).sort((a: number, b: number) => a - b);
    expect(idsOf((await assigned(KEYS.admin)).body)).toEqual([cost.id, floor.id]);
    // The FLOOR derived from the COST list tells the cost ("cost + 10 %"): as hidden as its base
    // (docs/api/access.md §18), an admin sees it with its base.
    const read = await assigned(KEYS.read);
    expect(read.body).toMatchObject({ data: [], meta: { totalItems: 0 } });
    for (const path of [`${PL}/${floor.id}`, `${PL}/${floor.id}/prices`]) {
      const res = await asRead(path);
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(`pricelist ${floor.id} not found`);
    }
    expect((await api("GET", `${PL}/${floor.id}`)).body.derivation).toMatchObject({
      basePricelistId: cost.id,
      adjustmentBp: 1000,
    });
    // A FLOOR with amounts of its own is an ordinary floor, seen by every key.
    const own = await createPricelist({ name: `Own floor ${channel.code}`, kind: "FLOOR" });
    await assignPricelistToChannel(channel.code, own.id);
    expect((await assigned(KEYS.read)).body.data.map((p: any) => p.id)).toEqual([own.id]);
    for (const kind of ["COST", "FLOOR"]) {
      const path = `/v1/api/channel/${channel.code}/pricelists?filter.kind=${kind}`;
      const filtered = await asRead(path);
      expect(filtered.body.data.map((p: any) => p.id)).toEqual(kind === "FLOOR" ? [own.id] : []);
      expect(filtered.body.meta.totalItems).toBe(kind === "FLOOR" ? 1 : 0);
    }
  });

  it("trade conditions: absent from every list, 404 by id", async () => {
    const channel = await createChannel();
    const customer = await createCustomer({ channelCodes: [channel.code] });
    const accrual = await createTradeCondition({
      name: `Accrual ${customer.code}`,
      scope: "CUSTOMER",
      type: "ACCRUAL",
      value: 321,
    });
    await ok("POST", `${TC}/${accrual.id}/customers`, { customerCodes: [customer.code] });
    const discount = await createTradeCondition({ scope: "CUSTOMER", value: 100 });
    await ok("POST", `${TC}/${discount.id}/customers`, { customerCodes: [customer.code] });

    // Only this test's two conditions target the customer; GLOBAL ones of other tests reach it too.
    const ofCustomer = `/v1/api/customer/${customer.code}/trade-conditions?filter.scope=CUSTOMER`;
    const idsOf = (res: any) =>
      res.body.data.map((l: any) => l.tradeCondition.id).sort((a: number, b: number) => a - b);
    expect(idsOf(await api("GET", ofCustomer))).toEqual([accrual.id, discount.id]);
    expect(idsOf(await asRead(ofCustomer))).toEqual([discount.id]);
    expect((await asRead(ofCustomer)).body.meta.totalItems).toBe(1);

    const byType = `${TC}?filter.type=ACCRUAL&search=${encodeURIComponent(`Accrual ${customer.code}`)}`;
    expect((await api("GET", byType)).body.meta.totalItems).toBe(1);
    expect((await asRead(byType)).body).toMatchObject({ data: [], meta: { totalItems: 0 } });
    const inChannel = await asRead(`${TC}?filter.type=ACCRUAL`, { "x-channel": channel.code });
    expect(inChannel.body.data).toEqual([]);
    const res = await asRead(`${TC}/${accrual.id}`);
    expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(
      `trade condition ${accrual.id} not found`,
    );
  });

  it("the change feed: a read key gets no change of a COST list or an ACCRUAL condition", async () => {
    const start = (await api("GET", "/v1/api/changes?limit=1000")).body.next as number;
    const product = await createProduct();
    const cost = await createPricelist({ kind: "COST" });
    await ok("PUT", `${PL}/${cost.id}/prices`, {
      prices: [{ productCode: product.code, amount: 5 }],
    });
    await assignPricelistToChannel((await createChannel()).code, cost.id);
    const accrual = await createTradeCondition({
      type: "ACCRUAL",
      value: 100,
      productCodes: [product.code],
    });
    const sales = await createPricelist();
    const feed = async (key: string) => {
      const res = await api("GET", `/v1/api/changes?after=${start}&limit=1000`, { key });
      expect(res.status).toBe(200);
      return res.body;
    };
    const admin = await feed(KEYS.admin);
    const read = await feed(KEYS.read);
    const names = (body: any): string[] =>
      body.data.map((c: any) => `${c.entity} ${JSON.stringify(c.key)}`);
    const hidden = (n: string) =>
      n === `pricelist {"id":${cost.id}}` ||
      n.includes(`"pricelistId":${cost.id},`) ||
      n.includes(`"pricelistId":${cost.id}}`) ||
      n === `tradeCondition {"id":${accrual.id}}` ||
      n.includes(`"tradeConditionId":${accrual.id},`);
    for (const entity of ["pricelistPrice", "channelPricelist", "tradeConditionProduct"]) {
      expect(names(admin).some((n) => n.startsWith(`${entity} `) && hidden(n))).toBe(true);
    }
    expect(names(admin)).toContain(`pricelist {"id":${cost.id}}`);
    expect(names(admin)).toContain(`tradeCondition {"id":${accrual.id}}`);
    expect(names(read)).toEqual(names(admin).filter((n) => !hidden(n)));
    expect(names(read)).toContain(`pricelist {"id":${sales.id}}`);
    expect(names(read)).toContain(`product {"id":${product.id},"code":"${product.code}"}`);
    // Both end at the same cursor: a read key misses no change it may see.
    expect(read.next).toBe(admin.next);
  });

  it("the change feed: a read key gets every link of a condition it sees, none of an ACCRUAL's", async () => {
    // Links to channels, customer groups and customers have ids of their own, and their entries
    // are keyed by them alone: whose they are is in the row (once hidden whenever an ACCRUAL
    // existed, whatever their condition).
    const start = (await api("GET", "/v1/api/changes?limit=1000")).body.next as number;
    const channel = await createChannel();
    const group = await createCustomerGroup();
    const customer = await createCustomer();
    const linked = async (type: string, scope: string) => {
      const record = await createTradeCondition({ type, scope, value: 100 });
      await ok("PATCH", `${TC}/${record.id}`, { channelCodes: [channel.code] });
      const target = scope === "CUSTOMER" ? "customers" : "customer-groups";
      const codes =
        scope === "CUSTOMER"
          ? { customerCodes: [customer.code] }
          : { customerGroupCodes: [group.code] };
      await ok("POST", `${TC}/${record.id}/${target}`, codes);
    };
    // Two conditions a read key sees and an ACCRUAL, each with a channel and a customer group or
    // a customer: the feed does not say whose a link is, so the links are counted by entity.
    await linked("DISCOUNT", "CUSTOMER_GROUP");
    await linked("SURCHARGE", "CUSTOMER");
    await linked("ACCRUAL", "CUSTOMER_GROUP");
    const links = async (key: string) => {
      const res = await api("GET", `/v1/api/changes?after=${start}&limit=1000`, { key });
      expect(res.status).toBe(200);
      return res.body.data
        .map((c: any) => c.entity as string)
        .filter(
          (entity: string) => entity.startsWith("tradeCondition") && entity !== "tradeCondition",
        )
        .sort();
    };
    expect(await links(KEYS.read)).toEqual([
      "tradeConditionChannel",
      "tradeConditionChannel",
      "tradeConditionCustomer",
      "tradeConditionCustomerGroup",
    ]);
    expect(await links(KEYS.admin)).toEqual([
      "tradeConditionChannel",
      "tradeConditionChannel",
      "tradeConditionChannel",
      "tradeConditionCustomer",
      "tradeConditionCustomerGroup",
      "tradeConditionCustomerGroup",
    ]);
  });
});
