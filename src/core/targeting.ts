import { z } from "@hono/zod-openapi";
import { DIMENSIONS, TARGET_FIELDS, type TargetField } from "../pricing";
import { Code } from "./schemas";

/*
 * The API side of the targeting dimensions (src/pricing/targeting.ts): what each dimension's
 * list is called in prose and an example, and the schemas of a trade condition's or promotion's
 * lists (read, create, update) and of the selectors that name products the same way (a change
 * request's ADJUST_PRICES, the simulation). They loop over the dimensions, so a new one is an
 * entry of `TARGET_DOCS`.
 */

interface TargetDocs {
  /** One record, in messages ("product group"). */
  noun: string;
  /** What the codes name, in prose ("products", "product groups, with every group below them"). */
  what: string;
  /** One code as an example. */
  example: string;
  /** How many codes a selector may name (a change request's ADJUST_PRICES). */
  selectorMax: number;
  /**
   * For a dimension whose reach has a distance (`Dimension.reach`), explain's words for it: what
   * `distance` is when a record reaches the product through one of these codes (`n`: the
   * distance of a code's first position) and the dimension in "null when not reached through
   * …". Required of such a dimension (`distanceDescription` throws without it).
   */
  distance?: { means: (n: number) => string; through: string };
}

export const TARGET_DOCS: Record<TargetField, TargetDocs> = {
  productCodes: { noun: "product", what: "products", example: "P-A", selectorMax: 1000 },
  productGroupCodes: {
    noun: "product group",
    what: "product groups (with every group below them)",
    example: "FAST",
    selectorMax: 100,
    distance: {
      means: () => "Parent steps from the product's group to the listed group that reaches it",
      through: "a group",
    },
  },
  brandCodes: {
    noun: "brand",
    what: "brands",
    example: "BOSCH",
    selectorMax: 100,
    distance: {
      means: (n) =>
        `${n} when it reaches the product through its brand (farther than any group, docs/pricing-rules.md §31)`,
      through: "a brand",
    },
  },
};

/**
 * explain's `distance` (docs/pricing-rules.md §9) in words, from the dimensions whose reach has a
 * distance (`DIMENSIONS`' `reach`) and their `distance` docs.
 */
export function distanceDescription(): string {
  const measured = DIMENSIONS.flatMap((d) => {
    const n = d.reach(0).distance;
    const words = TARGET_DOCS[d.field].distance;
    if (n === null) return [];
    if (!words) throw new Error(`TARGET_DOCS.${d.field} has a distance and no words for it`);
    return [{ means: words.means(n), through: words.through }];
  });
  return [
    ...measured.map((m) => m.means),
    `null when not reached through ${measured.map((m) => m.through).join(" or ")}`,
  ].join("; ");
}

/** "productCodes, productGroupCodes" (the fields, for descriptions). */
export const TARGET_FIELD_LIST = TARGET_FIELDS.join(", ");

/** A list of codes in a body: at most 1000, repeats dropped. */
export const codeList = (example: string[]) =>
  z
    .array(Code)
    .max(1000, "must name at most 1000 codes")
    .transform((codes) => [...new Set(codes)])
    .openapi({ example });

function perDimension<S extends z.ZodTypeAny>(schema: (field: TargetField, docs: TargetDocs) => S) {
  return Object.fromEntries(
    TARGET_FIELDS.map((field) => [field, schema(field, TARGET_DOCS[field])]),
  ) as { [F in TargetField]: S };
}

/** A record's lists as answers show them. */
export const targetListsRead = () =>
  perDimension((_, docs) =>
    z.array(z.string()).openapi({
      description: `The ${docs.what} it applies to, sorted; all of ${TARGET_FIELD_LIST} empty = all products (docs/pricing-rules.md §12)`,
    }),
  );

/** A record's lists on create: each defaults to empty; unknown codes → 400 naming them. */
export const targetListsCreate = () =>
  perDimension((_, docs) =>
    codeList([docs.example])
      .default([])
      .openapi({
        description: `The ${docs.what} it applies to (at most 1000); all of ${TARGET_FIELD_LIST} empty (default) = all products; unknown codes → 400`,
      }),
  );

/** A record's lists on update: a given list replaces the stored one. */
export const targetListsUpdate = () =>
  perDimension((_, docs) =>
    codeList([docs.example])
      .optional()
      .openapi({ description: `Replaces the list of ${docs.what}` }),
  );

/**
 * A selector's lists (a change request's ADJUST_PRICES): each optional, 1 to `selectorMax`
 * codes; the products any of them names are selected, none given: every product.
 */
export const targetSelectors = (whose: string) =>
  perDimension((_, docs) =>
    z
      .array(Code)
      .min(1, `must name at least one ${docs.noun}`)
      .max(docs.selectorMax, `must name at most ${docs.selectorMax} ${docs.noun}s`)
      .optional()
      .openapi({
        example: [docs.example],
        description: `${whose} of these ${docs.what} (with the other lists: any of them); none of ${TARGET_FIELD_LIST}: every product of the list`,
      }),
  );

/** A change's `affects` lists (docs/api/feed-and-webhooks.md §13.2): whose prices may have moved, by dimension. */
export const targetAffects = () =>
  perDimension((_, docs) =>
    z
      .array(z.string())
      .optional()
      .openapi({
        example: [docs.example],
        description: `The ${docs.what} whose prices may have moved`,
      }),
  );

/** The empty lists of every dimension (an example's, a record's that names none). */
export const noTargets = () => {
  const lists = {} as Record<TargetField, string[]>;
  for (const field of TARGET_FIELDS) lists[field] = [];
  return lists;
};
