import { FOREIGN_KEY } from "../../db/outcomes";
import { customerLinks } from "../../db/reads";
import type { Db } from "../../lib/db";
import { conflict, invalid, notFound, unknownCodesIssue } from "../../lib/errors";
import { primaryCustomerPricelist } from "../../pricing";
import { toPricelist } from "../pricelists/pricelists.repo";
import { assertAssignable, missingPricelist } from "../pricelists/pricelists.service";
import {
  assignCustomerPricelist,
  createCustomer as insertCustomer,
  customerTaken,
  findCustomerAndPricelist,
  readMemberships,
  toCustomer,
  updateCustomer as writeCustomer,
  updateCustomerFields,
  type CustomerRow,
  type PricelistRow,
} from "./customers.repo";
import type { CustomerCreate, CustomerUpdate } from "./customers.schemas";

/** The customer with its pricelists and the one that prices it first. */
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
  if (!assertAssignable(pricelist, "CUSTOMER", `customer ${code}`, customerId)) return;
  if ((await assignCustomerPricelist(db, customerId, pricelistId)) === FOREIGN_KEY) {
    throw missingCustomer(code);
  }
}
