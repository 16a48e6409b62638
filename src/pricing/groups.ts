/**
 * Product reach through product groups (docs/pricing-rules.md §12). A trade condition or a
 * promotion lists products, groups, both or neither; a product is in group X when its own group
 * is X or a descendant of X, at a distance of that many parent steps.
 */

/** How a record reaches one product: listed, through a group, or as an all-products record. */
export type ReachKind = "PRODUCT" | "GROUP" | "ALL";

export interface Reach {
  kind: ReachKind;
  /** GROUP only: parent steps from the product's own group to the closest listed group. */
  distance: number | null;
}

const LISTED: Reach = { kind: "PRODUCT", distance: null };
export const EVERY: Reach = { kind: "ALL", distance: null };

/** A record's product lists as sets; null = the list is empty. */
export interface ProductTargets {
  products: ReadonlySet<string> | null;
  groups: ReadonlySet<string> | null;
}

export const targetsOf = (
  productCodes: readonly string[],
  productGroupCodes: readonly string[],
): ProductTargets => ({
  products: productCodes.length > 0 ? new Set(productCodes) : null,
  groups: productGroupCodes.length > 0 ? new Set(productGroupCodes) : null,
});

/** The reach a record names for the products it lists (for a product it does not reach). */
export const listedKind = (t: ProductTargets): ReachKind =>
  t.products ? "PRODUCT" : t.groups ? "GROUP" : "ALL";

/**
 * How the record reaches the product, or null when it does not. Listing the product beats
 * reaching it through a group; among groups the closest one counts.
 */
export function reachOf(
  t: ProductTargets,
  productCode: string,
  groupPath: readonly string[],
): Reach | null {
  if (!t.products && !t.groups) return EVERY;
  if (t.products?.has(productCode)) return LISTED;
  if (t.groups) {
    for (let distance = 0; distance < groupPath.length; distance++) {
      if (t.groups.has(groupPath[distance]!)) return groupReach(distance);
    }
  }
  return null;
}

/**
 * Records indexed by what they reach, so a line looks up its product and its group path instead
 * of scanning every record. Each record is found once per product, with its reach.
 */
export class ReachIndex<T extends { targets: ProductTargets }> {
  private readonly anyProduct: T[] = [];
  private readonly byProduct = new Map<string, T[]>();
  private readonly byGroup = new Map<string, T[]>();

  add(item: T): void {
    const { products, groups } = item.targets;
    if (!products && !groups) this.anyProduct.push(item);
    for (const code of products ?? []) push(this.byProduct, code, item);
    for (const code of groups ?? []) push(this.byGroup, code, item);
  }

  /** The records that name no product and no group, in the order they were added. */
  get everyProduct(): readonly T[] {
    return this.anyProduct;
  }

  /** Calls `visit` once for every record reaching the product. */
  forEach(
    productCode: string,
    groupPath: readonly string[],
    visit: (item: T, reach: Reach) => void,
  ): void {
    for (const item of this.anyProduct) visit(item, EVERY);
    this.forEachTargeted(productCode, groupPath, visit);
  }

  /** `forEach` without `everyProduct`: the records that name the product or one of its groups. */
  forEachTargeted(
    productCode: string,
    groupPath: readonly string[],
    visit: (item: T, reach: Reach) => void,
  ): void {
    const listed = this.byProduct.get(productCode);
    if (listed) for (const item of listed) visit(item, LISTED);
    for (let distance = 0; distance < groupPath.length; distance++) {
      const reached = this.byGroup.get(groupPath[distance]!);
      if (!reached) continue;
      for (const item of reached) {
        // Listed, or reached through a closer group: already visited.
        const { products, groups } = item.targets;
        if (products?.has(productCode)) continue;
        if (groups!.size > 1 && closerGroup(groups!, groupPath, distance)) continue;
        visit(item, groupReach(distance));
      }
    }
  }
}

/** One Reach object per distance, so visiting allocates nothing. */
const GROUP_REACH: Reach[] = [];
const groupReach = (distance: number): Reach =>
  (GROUP_REACH[distance] ??= { kind: "GROUP", distance });

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

function closerGroup(
  groups: ReadonlySet<string>,
  groupPath: readonly string[],
  distance: number,
): boolean {
  for (let d = 0; d < distance; d++) if (groups.has(groupPath[d]!)) return true;
  return false;
}
