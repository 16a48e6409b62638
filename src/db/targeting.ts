import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { TARGET_FIELDS, type TargetField } from "../pricing";
import { codeLink, codesFrom, type CodeLink } from "./links";
import {
  brands,
  productGroups,
  products,
  promotionProductGroups,
  promotionBrands,
  promotionProducts,
  tradeConditionBrands,
  tradeConditionProductGroups,
  tradeConditionProducts,
} from "./schema";

/*
 * The link tables of the targeting dimensions (src/pricing/targeting.ts): for each dimension, the
 * records its codes name, the noun a message names one by, and the link table of each owner
 * (owner column, target column). The owners' link sets (`defineLinks` in their repositories)
 * spread `targetLinks(owner)`, and their reads decode the lists with `targetCodesFrom`, so a new
 * dimension is an entry here (and its tables in src/db/schema).
 */

type Owner = "tradeCondition" | "promotion";

interface TargetTables {
  to: Parameters<typeof codeLink>[2];
  noun: string;
  links: Record<Owner, readonly [owner: SQLiteColumn, target: SQLiteColumn]>;
}

const TARGET_TABLES: Record<TargetField, TargetTables> = {
  productCodes: {
    to: products,
    noun: "product",
    links: {
      tradeCondition: [tradeConditionProducts.tradeConditionId, tradeConditionProducts.productId],
      promotion: [promotionProducts.promotionId, promotionProducts.productId],
    },
  },
  productGroupCodes: {
    to: productGroups,
    noun: "product group",
    links: {
      tradeCondition: [
        tradeConditionProductGroups.tradeConditionId,
        tradeConditionProductGroups.productGroupId,
      ],
      promotion: [promotionProductGroups.promotionId, promotionProductGroups.productGroupId],
    },
  },
  brandCodes: {
    to: brands,
    noun: "brand",
    links: {
      tradeCondition: [tradeConditionBrands.tradeConditionId, tradeConditionBrands.brandId],
      promotion: [promotionBrands.promotionId, promotionBrands.brandId],
    },
  },
};

/** An owner's link of every dimension, by its field, for its `defineLinks`. */
export function targetLinks(owner: Owner): Record<TargetField, CodeLink> {
  const links = {} as Record<TargetField, CodeLink>;
  for (const field of TARGET_FIELDS) {
    const { to, noun, links: of } = TARGET_TABLES[field];
    const [ownerColumn, target] = of[owner];
    links[field] = codeLink(ownerColumn, target, to, noun);
  }
  return links;
}

/** The linked-codes columns of every dimension (JSON text) of a selected row. */
export type TargetColumns = Record<TargetField, string>;

/** A row's lists as answers show them: sorted codes, by field. */
export function targetCodesFrom(row: TargetColumns): Record<TargetField, string[]> {
  const lists = {} as Record<TargetField, string[]>;
  for (const field of TARGET_FIELDS) lists[field] = codesFrom(row[field]);
  return lists;
}
