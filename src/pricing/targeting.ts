/**
 * Product targeting (docs/pricing-rules.md §12): the ways a trade condition or a promotion names
 * the products it reaches, each declared ONCE in `DIMENSIONS`. A record lists codes in some of
 * them (none at all: every product); it reaches a product when one of the product's codes in a
 * dimension is listed there. Everything below (the targets of a record, how it reaches a line,
 * the index lines look records up in, the ladder's rungs, order-level sums, the linter, the
 * products' facts) loops over the declarations, so a new way to target terms is one entry here
 * (its members of `TargetField`, `TargetEntity` and `ReachKind`, its `BY_FIELD` entry) and its
 * twins (CONTRIBUTING.md "Adding a targeting dimension").
 */

import { pushTo } from "./maps";

/**
 * How a record reaches one product: listed, through a group, through its brand, or as an
 * all-products record.
 */
export type ReachKind = "PRODUCT" | "GROUP" | "BRAND" | "ALL";

export interface Reach {
  kind: ReachKind;
  /**
   * GROUP: parent steps from the product's own group to the closest listed group; BRAND:
   * `BRAND_DISTANCE`, farther than any group (docs/pricing-rules.md §31); else null.
   */
  distance: number | null;
}

/**
 * A brand counts as a group farther away than any group (docs/pricing-rules.md §31): a group
 * path holds at most 9 groups (distances 0 to 8).
 */
const BRAND_DISTANCE = 9;

/** The fields a record lists codes in, one per dimension. */
export type TargetField = "productCodes" | "productGroupCodes" | "brandCodes";

/** The record a dimension's codes name (the audited entity, the change feed's record). */
export type TargetEntity = "product" | "productGroup" | "brand";

/** A record's lists, as the engine's input carries them. */
export type TargetLists = { readonly [F in TargetField]?: readonly string[] };

/** What targeting needs to know of a product (a line is one). */
export interface TargetedProduct {
  productCode: string;
  /** Its own group first, then each parent up to the root. */
  groupPath: readonly string[];
  /**
   * Its code in each dimension of records a product names one of (`ProductCodes`: its facts, a
   * linter's product); undefined: none. Required, so that no product passes its facts flat.
   */
  codes: ProductCodes | undefined;
}

/** One way to target products. */
export interface Dimension {
  /** The record's field listing the codes (and the API's, the change feed's, the selectors'). */
  field: TargetField;
  /** The record its codes name. */
  entity: TargetEntity;
  /** The reach of a record listing the dimension's codes, for a product it does not reach. */
  kind: ReachKind;
  /**
   * Its reach's step on the ladder inside a scope (docs/pricing-rules.md §4.2): 0 the product
   * rung, 1 the group rung (all products come after every dimension).
   */
  step: number;
  /**
   * The product's field naming its one code in this dimension, when products name one record
   * of it or none (a product's `brandCode`): products' facts, lines and the linter's products
   * carry it in `ProductCodes`, the reader reads it from the product's column
   * (src/db/pricing/reach.ts). Absent: the dimension's `path` says.
   */
  named?: ProductCodeField;
  /** The product's codes in this dimension, most specific first. */
  path(product: TargetedProduct): readonly string[];
  /** How a record listing `path[position]` reaches the product. */
  reach(position: number): Reach;
}

const LISTED: Reach = { kind: "PRODUCT", distance: null };
export const EVERY: Reach = { kind: "ALL", distance: null };

/** One Reach object per distance, so visiting allocates nothing. */
const GROUP_REACH: Reach[] = [];
const groupReach = (distance: number): Reach =>
  (GROUP_REACH[distance] ??= { kind: "GROUP", distance });

const BRAND_REACH: Reach = { kind: "BRAND", distance: BRAND_DISTANCE };

type DimensionEntry = Omit<Dimension, "field" | "named" | "path"> &
  ({ named: string; path?: never } | { named?: never; path: Dimension["path"] });

/**
 * The dimensions by field, most specific first: a record reaching a product in two ways takes the
 * first (listing the product beats reaching it through a group; among groups the closest one
 * counts; a brand comes after every group). A dimension of records a product names one of gives
 * the product's field (`named`) instead of a `path`.
 */
const BY_FIELD = {
  productCodes: {
    entity: "product",
    kind: "PRODUCT",
    step: 0,
    path: (product) => [product.productCode],
    reach: () => LISTED,
  },
  productGroupCodes: {
    entity: "productGroup",
    kind: "GROUP",
    step: 1,
    path: (product) => product.groupPath,
    reach: groupReach,
  },
  brandCodes: {
    entity: "brand",
    kind: "BRAND",
    // On the group rung (docs/pricing-rules.md §31), after every group by distance.
    step: 1,
    named: "brandCode",
    reach: () => BRAND_REACH,
  },
} as const satisfies { [F in TargetField]: DimensionEntry };

/** The product's fields naming its code in a dimension (`Dimension.named`). */
export type ProductCodeField = {
  [F in TargetField]: (typeof BY_FIELD)[F] extends { named: infer N extends string } ? N : never;
}[TargetField];

/** The fields of the dimensions of records a product names one of (`Dimension.named`). */
export type NamedTargetField = {
  [F in TargetField]: (typeof BY_FIELD)[F] extends { named: string } ? F : never;
}[TargetField];

/** A product's codes in the dimensions of records it names one of; absent or null: none. */
export type ProductCodes = { readonly [K in ProductCodeField]?: string | null };

const NO_CODES: readonly string[] = [];

/** The path of a dimension a product names one record of: that one, or none. */
const namedPath =
  (named: ProductCodeField) =>
  (product: TargetedProduct): readonly string[] => {
    const code = product.codes?.[named];
    return code ? [code] : NO_CODES;
  };

/** The dimensions in `BY_FIELD`'s order, most specific first; a `named` one gets its `path`. */
export const DIMENSIONS: readonly Dimension[] = (Object.keys(BY_FIELD) as TargetField[]).map(
  (field): Dimension => {
    const entry: DimensionEntry = BY_FIELD[field];
    if (entry.named === undefined) return { field, ...entry };
    const named = entry.named as ProductCodeField;
    return { field, ...entry, named, path: namedPath(named) };
  },
);

/** The dimensions a product names one record of, with the product's field (`named`). */
export const NAMED_DIMENSIONS = DIMENSIONS.filter(
  (d): d is Dimension & { named: ProductCodeField } => d.named !== undefined,
);

/** A reach's step on the ladder inside a scope: its dimension's; all products after every one. */
export const REACH_STEP = Object.fromEntries([
  ...DIMENSIONS.map((d) => [d.kind, d.step] as const),
  ["ALL", Math.max(...DIMENSIONS.map((d) => d.step)) + 1],
]) as Record<ReachKind, number>;

/** The fields of `DIMENSIONS`, in their order. */
export const TARGET_FIELDS: readonly TargetField[] = DIMENSIONS.map((d) => d.field);

/** A record's lists as sets, by dimension; null = the list is empty. */
export type ProductTargets = { readonly [F in TargetField]: ReadonlySet<string> | null };

/** A record's codes listed in one dimension ([] when it lists none). */
export const listed = (record: TargetLists, field: TargetField): readonly string[] =>
  record[field] ?? [];

/** Whether the record lists nothing in any dimension: it reaches every product. */
export const namesNoProduct = (record: TargetLists): boolean =>
  TARGET_FIELDS.every((field) => listed(record, field).length === 0);

/** A record's lists as sets, by dimension (empty sets for empty lists). */
export const listedSets = (record: TargetLists) => {
  const sets = {} as Record<TargetField, ReadonlySet<string>>;
  for (const field of TARGET_FIELDS) sets[field] = new Set(listed(record, field));
  return sets;
};

export const targetsOf = (record: TargetLists): ProductTargets => {
  const targets = {} as Record<TargetField, ReadonlySet<string> | null>;
  for (const field of TARGET_FIELDS) {
    const codes = listed(record, field);
    targets[field] = codes.length > 0 ? new Set(codes) : null;
  }
  return targets;
};

/** Whether the targets list nothing in any dimension: they reach every product. */
export function isEvery(t: ProductTargets): boolean {
  // A loop, no callback: order-level sums ask it for every line.
  for (let i = 0; i < TARGET_FIELDS.length; i++) if (t[TARGET_FIELDS[i]!] !== null) return false;
  return true;
}

/** The reach a record names for the products it lists (for a product it does not reach). */
export const listedKind = (t: ProductTargets): ReachKind =>
  DIMENSIONS.find((d) => t[d.field] !== null)?.kind ?? "ALL";

/** How the record reaches the product, or null when it does not: its most specific way. */
export function reachOf(t: ProductTargets, product: TargetedProduct): Reach | null {
  if (isEvery(t)) return EVERY;
  for (const d of DIMENSIONS) {
    const codes = t[d.field];
    if (!codes) continue;
    const path = d.path(product);
    for (let at = 0; at < path.length; at++) if (codes.has(path[at]!)) return d.reach(at);
  }
  return null;
}

/** The records of an index that name one of a product's codes, and how each reaches it. */
export interface Reached<T> {
  items: readonly T[];
  /** `reaches[k]`: how `items[k]` reaches the product. */
  reaches: readonly Reach[];
}

/**
 * Records indexed by what they reach, so a line looks up its codes in each dimension instead of
 * scanning every record. Each record is found once per product, with its most specific reach.
 */
export class ReachIndex<T extends { targets: ProductTargets }> {
  private readonly anyProduct: T[] = [];
  /** By dimension, each code's records as their slots (the order they were added in). */
  private readonly byCode = DIMENSIONS.map(() => new Map<string, number[]>());
  private readonly items: T[] = [];
  /** By slot, the walk (`reachedBy`) that last found the record. */
  private readonly foundIn: number[] = [];
  private walks = 0;
  /** A walk's finds, copied out at their exact length (no array grown push by push). */
  private readonly foundItems: T[] = [];
  private readonly foundReaches: Reach[] = [];

  add(item: T): void {
    if (isEvery(item.targets)) this.anyProduct.push(item);
    const slot = this.items.push(item) - 1;
    this.foundIn.push(0);
    for (let i = 0; i < DIMENSIONS.length; i++) {
      const codes = item.targets[DIMENSIONS[i]!.field];
      if (codes) for (const code of codes) pushTo(this.byCode[i]!, code, slot);
    }
  }

  /** The records that name no product in any dimension, in the order they were added. */
  get everyProduct(): readonly T[] {
    return this.anyProduct;
  }

  /** Calls `visit` once for every record reaching the product. */
  forEach(product: TargetedProduct, visit: (item: T, reach: Reach) => void): void {
    for (const item of this.anyProduct) visit(item, EVERY);
    const { items, reaches } = this.reachedBy(product);
    for (let k = 0; k < items.length; k++) visit(items[k]!, reaches[k]!);
  }

  /**
   * The records that name one of the product's codes, each once, with its most specific reach:
   * dimension by dimension, along the product's path in each, in the order they were added. A
   * line walks the index once and keeps the result (every type of condition, the order-level
   * sums, the price-break advice and the ladder read it).
   */
  reachedBy(product: TargetedProduct): Reached<T> {
    const { foundItems, foundReaches } = this;
    let found = 0;
    const walk = ++this.walks;
    for (let i = 0; i < DIMENSIONS.length; i++) {
      const d = DIMENSIONS[i]!;
      const path = d.path(product);
      const byCode = this.byCode[i]!;
      for (let at = 0; at < path.length; at++) {
        const slots = byCode.get(path[at]!);
        if (!slots) continue;
        for (const slot of slots) {
          // Found earlier in this walk: it reaches the product in a more specific way.
          if (this.foundIn[slot] === walk) continue;
          this.foundIn[slot] = walk;
          foundItems[found] = this.items[slot]!;
          foundReaches[found++] = d.reach(at);
        }
      }
    }
    if (found === 0) return NOTHING_REACHED;
    return { items: foundItems.slice(0, found), reaches: foundReaches.slice(0, found) };
  }
}

const NOTHING_REACHED: Reached<never> = { items: [], reaches: [] };
