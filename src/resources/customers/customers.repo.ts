import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  insertRows,
  linkFacts,
  linkPairWrites,
  updateByCode,
  fromRow,
  type CodePair,
  type OwnerLinks,
} from "../../db/bulk";
import { rowsByCode, type FactParts } from "../../db/bulk-facts";
import { unlessForeignKey } from "../../db/outcomes";
import { linkWhere } from "../../db/writes";
import {
  customerColumns,
  customerLinks,
  customerPage,
  ownerJoin,
  pricelistColumns,
  selectPricelist,
  type CustomerRow,
  type PricelistRow,
} from "../../db/reads";
import { customerPricelists, customers, pricelists } from "../../db/schema";
import type { Visibility } from "../../db/visibility";
import { readPage, readPageOf, type ListRequest } from "../../list";
import { isUniqueViolation, type Db } from "../../db/client";
import { conflict } from "../../core/errors";
import type { CustomerCreate, CustomerUpdate } from "./customers.schemas";

export type { CustomerRow, PricelistRow };

export const listCustomers = (db: Db, list: ListRequest) =>
  readPage(db, ...customerPage(db, list.where, list));

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

export const customerTaken = (code: string | undefined) =>
  conflict(`customer code ${code} already exists`);
const duplicate = (err: unknown, code: string | undefined) =>
  isUniqueViolation(err) ? customerTaken(code) : err;

type Memberships = Pick<CustomerCreate, "customerGroupCodes" | "channelCodes">;
/** Memberships to write: group and channel ids, as `customerLinks.resolve` gives them. */
export type MembershipIds = ReturnType<typeof customerLinks.resolve>["values"];

/**
 * One round trip: the customer's id (undefined if the code is free) and what the named group and
 * channel codes resolve to, with the unknown ones.
 */
export async function readMemberships(db: Db, code: string, input: Memberships) {
  const [found, ...lookups] = await db.batch([
    db.select({ id: customers.id }).from(customers).where(eq(customers.code, code)),
    ...customerLinks.lookups(db, input),
  ]);
  return { id: found[0]?.id, ...customerLinks.resolve(input, lookups) };
}

/** Runs a write batch whose last statement reads the customer; FOREIGN_KEY if a named row is gone. */
async function writeCustomer(db: Db, items: BatchItem<"sqlite">[], code: string | undefined) {
  try {
    return await unlessForeignKey(async () => {
      const results = await db.batch(items as [BatchItem<"sqlite">]);
      return (results.at(-1) as CustomerRow[])[0];
    });
  } catch (err) {
    throw duplicate(err, code);
  }
}

/** The customer and its memberships in one batch. */
export async function createCustomer(
  db: Db,
  fields: Omit<CustomerCreate, keyof Memberships>,
  memberships: MembershipIds,
) {
  const id = sql`(select ${customers.id} from ${customers} where ${customers.code} = ${fields.code})`;
  return writeCustomer(
    db,
    [
      db.insert(customers).values(fields),
      ...customerLinks.inserts(db, id, memberships),
      selectCustomer(db, eq(customers.code, fields.code)),
    ],
    fields.code,
  );
}

/** Without memberships a single UPDATE … RETURNING; undefined when the customer is unknown. */
export async function updateCustomerFields(
  db: Db,
  code: string,
  fields: Omit<CustomerUpdate, keyof Memberships>,
) {
  try {
    return await db
      .update(customers)
      .set({ ...fields, updatedAt: Date.now() })
      .where(eq(customers.code, code))
      .returning(customerColumns)
      .get();
  } catch (err) {
    throw duplicate(err, fields.code);
  }
}

/** The update, the given memberships replaced, and the customer read back: one batch. */
export const updateCustomer = (
  db: Db,
  id: number,
  fields: Omit<CustomerUpdate, keyof Memberships>,
  memberships: MembershipIds,
) =>
  writeCustomer(
    db,
    [
      db
        .update(customers)
        .set({ ...fields, updatedAt: Date.now() })
        .where(eq(customers.id, id)),
      // A customer deleted since the read gets no memberships: the read back then says 404.
      ...customerLinks.replaces(
        db,
        id,
        memberships,
        sql`exists (select 1 from ${customers}
        where ${customers.id} = ${id})`,
      ),
      selectCustomer(db, eq(customers.id, id)),
    ],
    fields.code,
  );

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

/** Idempotent, while `guard` holds (see `linkWhere`). FOREIGN_KEY when the customer was deleted after the checks. */
export const assignCustomerPricelist = (
  db: Db,
  customerId: number,
  pricelistId: number,
  guard: SQL,
) => linkWhere(db, customerPricelists, { customerId, pricelistId }, guard);

// ---- bulk upserts by code (docs/api/relations.md §5.12) ----

/** The membership fields of a customer, as its links are declared. */
export type MembershipField = keyof typeof customerLinks.links;
export const MEMBERSHIP_FIELDS = Object.keys(customerLinks.links) as MembershipField[];

/** A stored customer as a bulk upsert judges it, with the codes of its memberships. */
export type StoredCustomer = { code: string; name: string } & Record<MembershipField, string[]>;

/** The part of the facts holding the stored links of a membership field. */
const linksPart = (field: MembershipField) => `${field}Links` as const;

/**
 * What a bulk upsert is judged on: the stored customers of its codes and their memberships (by
 * id, a row per customer), and per membership field the records the body names or the stored
 * links name (those that exist).
 */
export type CustomerFacts = { stored: { id: number; code: string; name: string }[] } & Record<
  MembershipField,
  { id: number; code: string }[]
> &
  Record<ReturnType<typeof linksPart>, OwnerLinks[]>;

const owner = { table: customers, id: customers.id, code: customers.code };

export function customerFacts(
  codes: string[],
  named: Record<MembershipField, string[]>,
): FactParts {
  const { id, code, name } = customers;
  const parts: FactParts = { stored: rowsByCode(customers, { id, code, name }, codes) };
  for (const field of MEMBERSHIP_FIELDS) {
    const { links, targets } = linkFacts(customerLinks.links[field], owner, codes, named[field]);
    parts[field] = targets;
    parts[linksPart(field)] = links;
  }
  return parts;
}

/** The stored customers of the facts by code, each with the codes of its memberships. */
export function storedCustomers(facts: CustomerFacts): Map<string, StoredCustomer> {
  const byId = new Map(
    facts.stored.map(({ id, code, name }): [number, StoredCustomer] => [
      id,
      { code, name, customerGroupCodes: [], channelCodes: [] },
    ]),
  );
  for (const field of MEMBERSHIP_FIELDS) {
    const codeOf = new Map(facts[field].map((target) => [target.id, target.code]));
    for (const [owner, targets] of facts[linksPart(field)]) {
      byId.get(owner)![field] = targets.map((target) => codeOf.get(target)!);
    }
  }
  return new Map([...byId.values()].map((customer) => [customer.code, customer]));
}

/** What a bulk upsert writes: new customers, new names, and membership differences. */
export interface CustomerChanges {
  created: { code: string; name: string }[];
  renamed: { code: string; name: string }[];
  links: Record<MembershipField, { remove: CodePair[]; add: CodePair[] }>;
}

/** The customers first, so their links can find the new ones by code. */
export const customerWrites = (db: Db, changes: CustomerChanges) => [
  ...insertRows(db, customers, changes.created),
  ...updateByCode(db, customers, changes.renamed, fromRow(["name"])),
  ...MEMBERSHIP_FIELDS.flatMap((field) =>
    linkPairWrites(db, customerLinks.links[field], owner, changes.links[field]),
  ),
];

// ---- customers of a pricelist (seed endpoint 20) ----

/** Owner of an INDIVIDUAL pricelist, or assigned through customer_pricelists; UNION counts each once. */
const holdsPricelist = (id: number): SQL =>
  sql`${customers.id} in (select customer_id from pricelists where id = ${id}
    union select customer_id from customer_pricelists where pricelist_id = ${id})`;

const selectPricelistId = (db: Db, id: number, scope: Visibility) =>
  db.select({ id: pricelists.id }).from(pricelists).where(scope.pricelistId(id));

/**
 * The page, its count and the pricelist's existence in one round trip; undefined if no such
 * pricelist, or one the key does not see (a COST one for a read key, docs/api/access.md §18).
 */
export const listPricelistCustomers = (db: Db, id: number, list: ListRequest, scope: Visibility) =>
  readPageOf(
    db,
    selectPricelistId(db, id, scope),
    ...customerPage(db, and(holdsPricelist(id), list.where), list),
  );
