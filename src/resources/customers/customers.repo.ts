import {
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  channelCustomers,
  channels,
  customerGroupMembers,
  customerGroups,
  customerPricelists,
  customers,
  pricelists,
} from "../../db/schema";
import { readPage, type ListRequest } from "../../list";
import { isForeignKeyViolation, isUniqueViolation, type Db } from "../../lib/db";
import { conflict, invalid, type FieldIssue } from "../../lib/errors";
import { iso } from "../../lib/schemas";
import { primaryCustomerPricelist } from "../../pricing";
import {
  ownerJoin,
  pricelistColumns,
  toPricelist,
  type PricelistRow,
} from "../pricelists/pricelists.repo";
import { selectPricelist } from "../channels/channels.repo";
import type { CustomerCreate, CustomerUpdate } from "./customers.schemas";

/**
 * Customer columns plus its sorted group and channel codes as JSON arrays, read in the same
 * statement. Plain SQL with qualified names: Drizzle writes columns unqualified in
 * single-table selects and in RETURNING.
 */
export const customerColumns = {
  ...getTableColumns(customers),
  customerGroupCodes: sql<string>`(select json_group_array(code) from (select g.code
    from customer_group_members m join customer_groups g on g.id = m.customer_group_id
    where m.customer_id = "customers"."id" order by g.code))`,
  channelCodes: sql<string>`(select json_group_array(code) from (select ch.code
    from channel_customers m join channels ch on ch.id = m.channel_id
    where m.customer_id = "customers"."id" order by ch.code))`,
};

export type CustomerRow = typeof customers.$inferSelect & {
  customerGroupCodes: string;
  channelCodes: string;
};

export const toCustomer = (row: CustomerRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  customerGroupCodes: JSON.parse(row.customerGroupCodes) as string[],
  channelCodes: JSON.parse(row.channelCodes) as string[],
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const toCustomerDetail = (
  { customer, pricelists }: { customer: CustomerRow; pricelists: PricelistRow[] },
  now: number,
) => {
  // The same ranking as the pricing engine's first two levels (INDIVIDUAL, then priority, id).
  const primary = primaryCustomerPricelist(pricelists, now);
  return {
    ...toCustomer(customer),
    pricelists: pricelists.map(toPricelist),
    primaryPricelist: primary ? toPricelist(primary) : null,
  };
};

export function listCustomers(db: Db, list: ListRequest) {
  return readPage(
    db,
    db
      .select(customerColumns)
      .from(customers)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(customers).where(list.where),
  );
}

const selectCustomer = (db: Db, where: SQL) =>
  db.select(customerColumns).from(customers).where(where);

/** The customer and its own pricelists (owned INDIVIDUAL and assigned GENERAL) in one round trip. */
export async function findCustomerDetail(db: Db, code: string) {
  const assigned = sql`${pricelists.id} in (select cp.pricelist_id from customer_pricelists cp
    join customers c on c.id = cp.customer_id where c.code = ${code})`;
  const [found, owned] = await db.batch([
    selectCustomer(db, eq(customers.code, code)),
    db
      .select(pricelistColumns)
      .from(pricelists)
      .leftJoin(customers, ownerJoin)
      .where(or(eq(customers.code, code), assigned))
      // The pricing rules' order: INDIVIDUAL first, then priority descending, then id.
      .orderBy(
        sql`${pricelists.scope} = 'INDIVIDUAL' desc`,
        desc(pricelists.priority),
        asc(pricelists.id),
      ),
  ]);
  const customer = found[0];
  return customer && { customer, pricelists: owned as PricelistRow[] };
}

const taken = (code: string | undefined) => conflict(`customer code ${code} already exists`);
const duplicate = (err: unknown, code: string | undefined) =>
  isUniqueViolation(err) ? taken(code) : err;

interface CodeCheck {
  id: number | null;
  unknownGroups: string;
  unknownChannels: string;
}

/**
 * One statement: the customer's id (if the code exists) and the unknown group and channel codes.
 * Code lists travel as one JSON parameter each, whatever their length.
 */
async function checkCodes(
  db: Db,
  code: string,
  input: { customerGroupCodes?: string[]; channelCodes?: string[] },
) {
  const row = await db.get<CodeCheck>(sql`select
    (select id from customers where code = ${code}) as id,
    (select json_group_array(value) from json_each(${JSON.stringify(input.customerGroupCodes ?? [])})
      where value not in (select code from customer_groups)) as unknownGroups,
    (select json_group_array(value) from json_each(${JSON.stringify(input.channelCodes ?? [])})
      where value not in (select code from channels)) as unknownChannels`);
  const issues: FieldIssue[] = [];
  const unknown = (path: string, kind: string, json: string) => {
    const codes = JSON.parse(json) as string[];
    if (codes.length) issues.push({ path, message: `unknown ${kind} codes: ${codes.join(", ")}` });
  };
  unknown("body.customerGroupCodes", "customer group", row.unknownGroups);
  unknown("body.channelCodes", "channel", row.unknownChannels);
  return { id: row.id, issues };
}

const inJson = (column: SQLWrapper, codes: string[]) =>
  sql`${column} in (select value from json_each(${JSON.stringify(codes)}))`;

/** Membership rows (INSERT … SELECT) for the customer matched by `customer`. */
function addMemberships(
  db: Db,
  customer: SQL,
  input: { customerGroupCodes?: string[]; channelCodes?: string[] },
): BatchItem<"sqlite">[] {
  const items: BatchItem<"sqlite">[] = [];
  if (input.customerGroupCodes?.length) {
    items.push(
      db
        .insert(customerGroupMembers)
        .select(
          db
            .select({ customerGroupId: customerGroups.id, customerId: customers.id })
            .from(customerGroups)
            .innerJoin(customers, customer)
            .where(inJson(customerGroups.code, input.customerGroupCodes)),
        ),
    );
  }
  if (input.channelCodes?.length) {
    items.push(
      db
        .insert(channelCustomers)
        .select(
          db
            .select({ channelId: channels.id, customerId: customers.id })
            .from(channels)
            .innerJoin(customers, customer)
            .where(inJson(channels.code, input.channelCodes)),
        ),
    );
  }
  return items;
}

const hasCodes = (input: { customerGroupCodes?: string[]; channelCodes?: string[] }) =>
  Boolean(input.customerGroupCodes?.length || input.channelCodes?.length);

/** Unknown codes → 400 before anything is written; the customer and its memberships in one batch. */
export async function createCustomer(db: Db, input: CustomerCreate): Promise<CustomerRow> {
  const { customerGroupCodes, channelCodes, ...fields } = input;
  if (hasCodes(input)) {
    const check = await checkCodes(db, input.code, input);
    if (check.id !== null) throw taken(input.code);
    if (check.issues.length) throw invalid(check.issues);
  }
  const items: BatchItem<"sqlite">[] = [
    db.insert(customers).values(fields),
    ...addMemberships(db, eq(customers.code, input.code), { customerGroupCodes, channelCodes }),
    selectCustomer(db, eq(customers.code, input.code)),
  ];
  try {
    const results = await db.batch(items as [BatchItem<"sqlite">]);
    return (results.at(-1) as CustomerRow[])[0]!;
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

/**
 * Given code lists replace the memberships: check first (404, then 400), then the update, the
 * deletes and the inserts in one batch. Without lists it is a single UPDATE … RETURNING.
 */
export async function updateCustomer(
  db: Db,
  code: string,
  input: CustomerUpdate,
): Promise<CustomerRow | undefined> {
  const { customerGroupCodes, channelCodes, ...fields } = input;
  const set = { ...fields, updatedAt: Date.now() };
  try {
    if (customerGroupCodes === undefined && channelCodes === undefined) {
      return await db
        .update(customers)
        .set(set)
        .where(eq(customers.code, code))
        .returning(customerColumns)
        .get();
    }
    const check = await checkCodes(db, code, input);
    if (check.id === null) return undefined;
    if (check.issues.length) throw invalid(check.issues);
    const id = check.id;
    const items: BatchItem<"sqlite">[] = [
      db.update(customers).set(set).where(eq(customers.id, id)),
    ];
    if (customerGroupCodes !== undefined)
      items.push(db.delete(customerGroupMembers).where(eq(customerGroupMembers.customerId, id)));
    if (channelCodes !== undefined)
      items.push(db.delete(channelCustomers).where(eq(channelCustomers.customerId, id)));
    items.push(
      ...addMemberships(db, eq(customers.id, id), { customerGroupCodes, channelCodes }),
      selectCustomer(db, eq(customers.id, id)),
    );
    const results = await db.batch(items as [BatchItem<"sqlite">]);
    return (results.at(-1) as CustomerRow[])[0];
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

/**
 * Memberships, pricelist and condition assignments, and the customer's own INDIVIDUAL pricelists
 * (with their prices) go with it through ON DELETE CASCADE; nothing restricts it.
 */
export const deleteCustomer = (db: Db, code: string) =>
  db.delete(customers).where(eq(customers.code, code)).returning({ id: customers.id }).get();

/** The customer's id and the pricelist, in one round trip; either is undefined when unknown. */
export async function findCustomerAndPricelist(db: Db, code: string, pricelistId: number) {
  const [customer, pricelist] = await db.batch([
    db.select({ id: customers.id }).from(customers).where(eq(customers.code, code)),
    selectPricelist(db, pricelistId),
  ]);
  return { customerId: customer[0]?.id, pricelist: pricelist[0] as PricelistRow | undefined };
}

/** Idempotent. False when the customer was deleted after the checks (a foreign key failure). */
export async function assignCustomerPricelist(db: Db, customerId: number, pricelistId: number) {
  try {
    await db.insert(customerPricelists).values({ customerId, pricelistId }).onConflictDoNothing();
    return true;
  } catch (err) {
    if (isForeignKeyViolation(err)) return false;
    throw err;
  }
}
