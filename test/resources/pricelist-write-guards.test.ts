import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb, DbMeter } from "../../src/db/client";
import {
  assignPricelist as assignToChannel,
  setPrimaryPricelist,
} from "../../src/resources/channels/channels.service";
import { assignPricelist as assignToGroup } from "../../src/resources/customer-groups/customer-groups.service";
import { assignPricelist as assignToCustomer } from "../../src/resources/customers/customers.service";
import {
  assignCustomerGroups,
  deletePrices,
  updatePricelist,
  upsertPrices,
} from "../../src/resources/pricelists/pricelists.service";
import {
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  createProduct,
} from "../factories";
import { api, uid } from "../shared/helpers";

/*
 * The rules of assigning a pricelist and of writing its prices (docs/api/relations.md §5.2,
 * docs/api/resources.md §3) are checked on a read, a round trip before the write; the write
 * carries them again in its own SQL. Here the conflicting state is written straight into D1
 * after the request's first round trip (its check) and before its write, as a concurrent request
 * would: the write must refuse, answer what the check would have answered, and leave no row and
 * no audit entry.
 */

/** A meter that runs `between` once, after the first round trip (the check) has answered. */
class Between extends DbMeter {
  constructor(private between?: () => Promise<unknown>) {
    super();
  }

  override async time<T>(call: () => Promise<T>): Promise<T> {
    const result = await super.time(call);
    const between = this.between;
    this.between = undefined;
    if (between) await between();
    return result;
  }
}

/** The service's database, with `between` run after its check; its writes audited under `requestId`. */
function racedDb(between: () => Promise<unknown>, requestId: string) {
  const audit = () => ({
    requestId,
    correlationId: null,
    keyName: "test",
    operation: "raced",
    method: "POST",
    path: "/raced",
  });
  return createDb(env.DB, new Between(between), audit);
}

const raw = (query: string, ...params: unknown[]) =>
  env.DB.prepare(query)
    .bind(...params)
    .run();

const setKind = (id: number, kind: string) => () =>
  raw("update pricelists set kind = ? where id = ?", kind, id);
const archive = (id: number) => () =>
  raw("update pricelists set status = 'ARCHIVED' where id = ?", id);

const count = async (query: string, ...params: unknown[]) =>
  (await env.DB.prepare(query)
    .bind(...params)
    .first<{ n: number }>())!.n;

const linksOf = (id: number) =>
  count(
    `select (select count(*) from channel_pricelists where pricelist_id = ?1)
      + (select count(*) from customer_group_pricelists where pricelist_id = ?1)
      + (select count(*) from customer_pricelists where pricelist_id = ?1) as n`,
    id,
  );

const auditOf = (requestId: string) =>
  count("select count(*) as n from audit_log where request_id = ?", requestId);

type Assign = (db: ReturnType<typeof createDb>, id: number) => Promise<unknown>;

/** Every path that links a pricelist, as a service call on `db`. */
async function assignmentPaths(): Promise<Record<(typeof PLACES)[number], Assign>> {
  const channel = (await createChannel()).code as string;
  const group = (await createCustomerGroup()).code as string;
  const customer = (await createCustomer()).code as string;
  return {
    "a channel's list": (db, id) => assignToChannel(db, channel, id),
    "a channel's primary": (db, id) => setPrimaryPricelist(db, channel, id),
    "a customer group (the group's side)": (db, id) => assignToGroup(db, group, id),
    "customer groups (the pricelist's side)": (db, id) => assignCustomerGroups(db, id, [group]),
    "a customer": (db, id) => assignToCustomer(db, customer, id),
  };
}

const PLACES = [
  "a channel's list",
  "a channel's primary",
  "a customer group (the group's side)",
  "customer groups (the pricelist's side)",
  "a customer",
] as const;
/** Where a COST or FLOOR list may not go. */
const LINKED = PLACES.filter((place) => place !== "a channel's list");

describe("an assignment judges the pricelist's kind in its write (relations.md §5.2)", () => {
  it.each(LINKED)(
    "a list made COST after the check is not linked to %s: 409, no link, no audit entry",
    async (place) => {
      const assign = (await assignmentPaths())[place];
      const { id } = await createPricelist();
      const requestId = uid("RQ");
      await expect(assign(racedDb(setKind(id, "COST"), requestId), id)).rejects.toMatchObject({
        status: 409,
        code: "PRICELIST_NOT_ASSIGNABLE",
        message: expect.stringContaining(`pricelist ${id} is a COST pricelist and cannot be`),
      });
      expect(await linksOf(id)).toBe(0);
      expect(await auditOf(requestId)).toBe(0);
    },
  );

  it("a list made FLOOR after the check does not become a channel's primary, and the old primary keeps its mark", async () => {
    const channel = (await createChannel()).code as string;
    const { id: primary } = await createPricelist();
    expect(
      (
        await api("PUT", `/v1/api/channel/${channel}/pricelist/primary`, {
          body: { pricelistId: primary },
        })
      ).status,
    ).toBe(200);
    const { id } = await createPricelist();
    const requestId = uid("RQ");
    await expect(
      setPrimaryPricelist(racedDb(setKind(id, "FLOOR"), requestId), channel, id),
    ).rejects.toMatchObject({ status: 409, code: "PRICELIST_NOT_ASSIGNABLE" });
    expect(await linksOf(id)).toBe(0);
    expect(
      await count(
        "select count(*) as n from channel_pricelists where pricelist_id = ? and is_primary = 1",
        primary,
      ),
    ).toBe(1);
    expect(await auditOf(requestId)).toBe(0);
  });

  it("the kind change judges the assignments in its write: a group link made after its check → 409, kind stays SALES", async () => {
    const group = await createCustomerGroup();
    const { id } = await createPricelist();
    const link = () =>
      raw(
        `insert into customer_group_pricelists (customer_group_id, pricelist_id)
          select id, ? from customer_groups where code = ?`,
        id,
        group.code,
      );
    const requestId = uid("RQ");
    await expect(
      updatePricelist(racedDb(link, requestId), id, { kind: "COST" }),
    ).rejects.toMatchObject({
      status: 409,
      code: "PRICELIST_NOT_ASSIGNABLE",
      message: expect.stringContaining(`customer groups ${group.code}`),
    });
    expect((await api("GET", `/v1/api/pricelist/${id}`)).body.kind).toBe("SALES");
    expect(await auditOf(requestId)).toBe(0);
  });
});

describe("an ARCHIVED pricelist is final: the writes judge the status themselves (resources.md §3)", () => {
  it.each(PLACES)(
    "%s, for a list archived after the check: 409 PRICELIST_NOT_ASSIGNABLE, no link, no audit entry",
    async (place) => {
      const assign = (await assignmentPaths())[place];
      const { id } = await createPricelist({ status: "ACTIVE" });
      const requestId = uid("RQ");
      await expect(assign(racedDb(archive(id), requestId), id)).rejects.toMatchObject({
        status: 409,
        code: "PRICELIST_NOT_ASSIGNABLE",
        message: expect.stringContaining(`pricelist ${id} is ARCHIVED and cannot be assigned`),
      });
      expect(await linksOf(id)).toBe(0);
      expect(await auditOf(requestId)).toBe(0);
    },
  );

  it("undated prices written after the archive: 409, the stored amount kept, no audit entry", async () => {
    const product = (await createProduct()).code as string;
    const { id } = await createPricelist({ status: "ACTIVE" });
    const sheet = (amount: number) => ({
      prices: [{ productCode: product, amount }],
    });
    expect((await api("PUT", `/v1/api/pricelist/${id}/prices`, { body: sheet(100) })).status).toBe(
      200,
    );
    const requestId = uid("RQ");
    const row = {
      productCode: product,
      minQuantity: 1,
      amount: 5,
      priceUnit: 1,
      flatAmount: 0,
      validFrom: null,
    };
    await expect(upsertPrices(racedDb(archive(id), requestId), id, [row])).rejects.toMatchObject({
      status: 409,
      code: "CONFLICT",
      message: `pricelist ${id} is ARCHIVED and can no longer be edited`,
    });
    const prices = await api("GET", `/v1/api/pricelist/${id}/prices`);
    expect(prices.body.data.map((p: { amount: number }) => p.amount)).toEqual([100]);
    expect(await auditOf(requestId)).toBe(0);
  });

  it("a delete of price rows after the archive: 409, the row kept, no audit entry", async () => {
    const product = (await createProduct()).code as string;
    const { id } = await createPricelist({ status: "ACTIVE" });
    const body = { prices: [{ productCode: product, amount: 100 }] };
    expect((await api("PUT", `/v1/api/pricelist/${id}/prices`, { body })).status).toBe(200);
    const requestId = uid("RQ");
    await expect(
      deletePrices(racedDb(archive(id), requestId), id, [product]),
    ).rejects.toMatchObject({
      status: 409,
      code: "CONFLICT",
      message: `pricelist ${id} is ARCHIVED and can no longer be edited`,
    });
    expect(
      await count("select count(*) as n from pricelist_prices where pricelist_id = ?", id),
    ).toBe(1);
    expect(await auditOf(requestId)).toBe(0);
  });
});
