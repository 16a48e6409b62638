import type { CodePair } from "../../db/bulk";
import { codesFrom } from "../../db/links";
import { FOREIGN_KEY } from "../../db/outcomes";
import { customerLinks } from "../../db/reads";
import { BulkPlan, upsertInBulk } from "../../db/bulk-plan";
import type { Db } from "../../db/client";
import { conflict, invalid, notFound, unknownCodesIssue } from "../../core/errors";
import { primaryCustomerPricelist } from "../../pricing";
import {
  assertAssignable,
  linkWhile,
  missingPricelist,
  toPricelist,
} from "../pricelists/pricelists.service";
import {
  assignCustomerPricelist,
  createCustomer as insertCustomer,
  customerFacts,
  customerTaken,
  customerWrites,
  findCustomerAndPricelist,
  readMemberships,
  storedCustomers,
  updateCustomer as writeCustomer,
  updateCustomerFields,
  MEMBERSHIP_FIELDS,
  type CustomerChanges,
  type CustomerFacts,
  type CustomerRow,
  type MembershipField,
  type PricelistRow,
  type StoredCustomer,
} from "./customers.repo";
import { iso } from "../../core/schemas";
import type { CustomerCreate, CustomerUpdate, CustomerUpsert } from "./customers.schemas";

/** A customer as the API shows it, wherever one is shown (its memberships by code). */
export const toCustomer = (row: CustomerRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  customerGroupCodes: codesFrom(row.customerGroupCodes),
  channelCodes: codesFrom(row.channelCodes),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/** The customer with its pricelists and the one that prices it first. */
export const toCustomerDetail = (
  { customer, pricelists }: { customer: CustomerRow; pricelists: PricelistRow[] },
  now: number,
) => {
  // The same ranking as the pricing engine's first two levels (INDIVIDUAL, then priority, id).
  const primary = primaryCustomerPricelist(pricelists, now);
  return {
    ...toCustomer(customer),
    pricelists: pricelists.map((row) => toPricelist(row)),
    primaryPricelist: primary ? toPricelist(primary) : null,
  };
};

export const missingCustomer = (code: string) => notFound(`customer ${code} not found`);

/** A group or channel deleted between the read that resolved its code and the write. */
function written(row: CustomerRow | undefined | typeof FOREIGN_KEY) {
  if (row !== FOREIGN_KEY) return row;
  throw conflict("a named customer group or channel was deleted meanwhile; nothing was written");
}

/** The named codes resolved, or 400 naming every unknown one. */
function requireKnown(resolved: Awaited<ReturnType<typeof readMemberships>>) {
  const issues = resolved.unknown.map((u) => unknownCodesIssue(u.field, u.noun, u.codes));
  if (issues.length) throw invalid(issues);
  return resolved.values;
}

/** Unknown codes → 400 before anything is written; the customer and its memberships in one batch. */
export async function createCustomer(db: Db, input: CustomerCreate): Promise<CustomerRow> {
  const { customerGroupCodes, channelCodes, ...fields } = input;
  const memberships = { customerGroupCodes, channelCodes };
  let ids = {};
  if (customerLinks.namesCodes(memberships)) {
    const resolved = await readMemberships(db, input.code, memberships);
    if (resolved.id !== undefined) throw customerTaken(input.code);
    ids = requireKnown(resolved);
  }
  return written(await insertCustomer(db, fields, ids))!;
}

/**
 * Given code lists replace the memberships: check first (404, then 400), then the update, the
 * deletes and the inserts in one batch. Without lists it is a single UPDATE … RETURNING.
 */
export async function updateCustomer(db: Db, code: string, input: CustomerUpdate) {
  const { customerGroupCodes, channelCodes, ...fields } = input;
  const row =
    customerGroupCodes === undefined && channelCodes === undefined
      ? await updateCustomerFields(db, code, fields)
      : await replaceMemberships(db, code, input);
  if (!row) throw missingCustomer(code);
  return row;
}

async function replaceMemberships(db: Db, code: string, input: CustomerUpdate) {
  const { customerGroupCodes, channelCodes, ...fields } = input;
  const resolved = await readMemberships(db, code, { customerGroupCodes, channelCodes });
  if (resolved.id === undefined) return undefined;
  return written(await writeCustomer(db, resolved.id, fields, requireKnown(resolved)));
}

/** The customer's own INDIVIDUAL pricelist is already its own: nothing to write (unless ARCHIVED). */
export async function assignPricelist(db: Db, code: string, pricelistId: number) {
  const { customerId, pricelist } = await findCustomerAndPricelist(db, code, pricelistId);
  if (customerId === undefined) throw missingCustomer(code);
  if (!pricelist) throw missingPricelist(pricelistId);
  const target = `customer ${code}`;
  if (!assertAssignable(pricelist, "CUSTOMER", target, customerId)) return;
  const linked = await linkWhile(db, pricelistId, "CUSTOMER", target, (guard) =>
    assignCustomerPricelist(db, customerId, pricelistId, guard),
  );
  if (linked === FOREIGN_KEY) throw missingCustomer(code);
}

/** Every row's named groups and channels exist (400 naming the unknown ones on the row's field). */
function judgeCustomers(rows: CustomerUpsert[], facts: CustomerFacts, stored: Stored) {
  const plan = new BulkPlan<StoredCustomer, CustomerUpsert>("customers");
  const known = Object.fromEntries(
    MEMBERSHIP_FIELDS.map((field) => [field, new Set(facts[field].map((row) => row.code))]),
  ) as Record<MembershipField, Set<string>>;
  rows.forEach((row, i) => {
    for (const field of MEMBERSHIP_FIELDS) {
      const unknown = (row[field] ?? []).filter((code) => !known[field].has(code));
      const { noun } = customerLinks.links[field];
      if (unknown.length) {
        plan.issues.push(unknownCodesIssue(`customers.${i}.${field}`, noun, unknown));
      }
    }
    plan.add(stored.get(row.code), row);
  });
  return plan;
}

type Stored = Map<string, StoredCustomer>;

const pairs = (owner: string, targets: string[]): CodePair[] =>
  targets.map((target) => ({ owner, target }));

/**
 * The links a row's membership array drops and adds, against the stored ones (none for a new
 * customer); an absent array changes nothing.
 */
function linkChanges(row: CustomerUpsert, field: MembershipField, before?: StoredCustomer) {
  const wanted = row[field];
  if (!wanted) return { remove: [], add: [] };
  const had = new Set(before?.[field]);
  const keep = new Set(wanted);
  return {
    remove: pairs(
      row.code,
      [...had].filter((code) => !keep.has(code)),
    ),
    add: pairs(
      row.code,
      wanted.filter((code) => !had.has(code)),
    ),
  };
}

/**
 * What the plan writes: the new customers with their memberships; for changed ones, the new
 * name and, for each membership array given, the links it drops and adds (the rest stay).
 */
function changesOf(plan: BulkPlan<StoredCustomer, CustomerUpsert>, stored: Stored) {
  const rows = [...plan.created, ...plan.updated];
  const links = MEMBERSHIP_FIELDS.map((field) => {
    const changes = rows.map((row) => linkChanges(row, field, stored.get(row.code)));
    return [
      field,
      { remove: changes.flatMap((c) => c.remove), add: changes.flatMap((c) => c.add) },
    ];
  });
  return {
    created: plan.created.map(({ code, name }) => ({ code, name })),
    renamed: plan.updated
      .filter((row) => stored.get(row.code)!.name !== row.name)
      .map(({ code, name }) => ({ code, name })),
    links: Object.fromEntries(links) as CustomerChanges["links"],
  };
}

/**
 * `PUT /v1/api/customer`: 1-1000 customers by code, all or nothing, in two round trips. A given
 * membership array replaces the stored one (only the differences are written); an absent one
 * leaves it alone.
 */
export function upsertCustomers(db: Db, rows: CustomerUpsert[]) {
  const named = Object.fromEntries(
    MEMBERSHIP_FIELDS.map((field) => [
      field,
      [...new Set(rows.flatMap((row) => row[field] ?? []))],
    ]),
  ) as Record<MembershipField, string[]>;
  const facts = customerFacts(
    rows.map((row) => row.code),
    named,
  );
  return upsertInBulk<CustomerFacts>(db, "the customers", facts, (read) => {
    const stored = storedCustomers(read);
    const plan = judgeCustomers(rows, read, stored);
    return { plan, writes: () => customerWrites(db, changesOf(plan, stored)) };
  });
}
