import { sql, type SQL } from "drizzle-orm";
import {
  DIMENSIONS,
  listed,
  NAMED_DIMENSIONS,
  namesNoProduct,
  type NamedTargetField,
  type ProductCodeField,
  type ProductFacts,
  type TargetField,
  type TargetLists,
} from "../../pricing";
import {
  channelCurrency,
  isNotEnded,
  live as liveAt,
  MAX_DERIVATION_STEPS,
  mayDeriveFurther,
  primaryCurrency as primaryCurrencyOf,
} from "./facts";
import { params as q } from "./query";
import type { Visibility } from "../visibility";

/*
 * Which pricing records can touch a request (docs/pricing-rules.md §2, §12), written twice: as SQL
 * fragments for the statements that read records of one request, and as in-memory predicates
 * for the cached contexts, which hold a channel's or a customer's records for every product and
 * moment and pick a request's among them (src/db/pricing/contexts.ts). Each in-memory predicate
 * sits below its SQL twin; test/pricing/pricing-reader.test.ts holds the two against each other on
 * generated data.
 */

// ---------------------------------------------------------------------------------------------
// SQL
// ---------------------------------------------------------------------------------------------

/**
 * Requested products are read by code from the index holding what the reader needs of them
 * (migration 0016): no table row is read. Named, because without statistics SQLite would
 * prefer the unique index on code, which does not hold the columns.
 */
const byLookupIndex = sql.raw("indexed by products_lookup_idx");

const products = sql`(select value from json_each(${q.productCodes}))`;

/**
 * Every pricelist reaching the request, once per level (docs/pricing-rules.md §3): through the
 * customer (and G, `groups`), through the channel, and both.
 */
function reachingLists(groups: SQL) {
  const customerReaching = sql`select p.id as pricelist_id, 'INDIVIDUAL' as level from pricelists p
      join customers cu on cu.id = p.customer_id where cu.code = ${q.customerCode}
    union all select cp.pricelist_id, 'CUSTOMER' from customer_pricelists cp
      join customers cu on cu.id = cp.customer_id where cu.code = ${q.customerCode}
    union all select gp.pricelist_id, 'CUSTOMER_GROUP' from customer_group_pricelists gp
      where gp.customer_group_id in ${groups}`;
  const channelReaching = sql`select cp.pricelist_id as pricelist_id,
      case when cp.is_primary = 1 then 'CHANNEL_PRIMARY' else 'CHANNEL' end as level
      from channel_pricelists cp join channels ch on ch.id = cp.channel_id
      where ch.code = ${q.channelCode}`;
  const reaching = sql`(${customerReaching}
    union all ${channelReaching})`;
  return { customerReaching, channelReaching, reaching };
}

/**
 * `chain(id, steps)`: every list one of the lists `starts(id)` derives from, up to
 * MAX_DERIVATION_STEPS steps (facts.ts).
 */
export const chainFrom = (starts: string) => {
  const from = sql.raw(starts);
  return sql`chain(id, steps) as (
      select p.base_pricelist_id, 1 from ${from} join pricelists p on p.id = ${from}.id
        where p.base_pricelist_id is not null
      union select b.base_pricelist_id, chain.steps + 1 from chain join pricelists b on b.id = chain.id
        where b.base_pricelist_id is not null and ${mayDeriveFurther(sql`chain.steps`)})`;
};

/**
 * The pricelists of the request as common table expressions: `reaching`, every list reaching it
 * once per level; `pricing`, those that can price (SALES, ACTIVE, in the currency: the engine
 * stops at that check for the others, so their rows and bases would never be looked at); and
 * `chain`, every list one of those or one of the channel's FLOOR lists (`floors`; a FLOOR may
 * derive from a COST list, docs/pricing-rules.md §24) derives from, up to 3 steps, whatever its
 * state (§3.7). In memory: `chainOf`.
 */
const pricingLists = (reaching: SQL, currency: SQL, floors: SQL) => sql`with recursive
    reaching(pricelist_id, level) as ${reaching},
    pricing(id) as (select r.pricelist_id from reaching r join pricelists p on p.id = r.pricelist_id
      where p.status = 'ACTIVE' and p.currency = ${currency} and p.kind = 'SALES'),
    derives(id) as (select id from pricing union select * from ${floors}),
    ${chainFrom("derives")}`;

/**
 * The lists reaching at some levels (`reaching`: the channel's two, or the customer's three), for
 * the cached contexts: `reaching`, and `chain` from every SALES list among them whatever its
 * status and currency, so that the chain of the lists that can price in any currency is among it,
 * and from the channel's FLOOR lists (`floors`, the channel context's; null: none).
 */
export const levelLists = (reaching: SQL, floors: SQL | null = null) => sql`with recursive
    reaching(pricelist_id, level) as (${reaching}),
    sales(id) as (select r.pricelist_id from reaching r join pricelists p on p.id = r.pricelist_id
      where p.kind = 'SALES' ${floors ? sql`union select * from ${floors}` : sql``}),
    ${chainFrom("sales")}`;

/**
 * The targeting dimensions as the reader meets them, one entry per dimension of the engine's
 * `DIMENSIONS` (src/pricing/targeting.ts), by its field: the link tables' suffix
 * (`trade_condition_<link>`, `promotion_<link>`), the column naming the target and the target
 * table, the SQL test of a record's links against the requested codes (`reaches`, a condition on
 * the link table `link` of owner column `o` and owner id `i`) and the ids of those codes (`ids`,
 * read by `sharedLinks` of columns.ts to trim a record's links to the request). The in-memory
 * twin of `reaches` is `reaching` below, on the codes the engine's `path` gives.
 */
export interface ReadDimension {
  field: TargetField;
  link: string;
  column: string;
  target: string;
  /** A dimension of records a product names one of (`Dimension.named`): built by `named`. */
  named?: true;
  ids: SQL;
  reaches(link: SQL, o: SQL, i: SQL): SQL;
  /**
   * Price rows selected by codes of the dimension (a change request's ADJUST_PRICES,
   * src/db/price-rows.ts): the common table expression it needs, if any (`with`), and the
   * pairs (i, l, product id) of the selections `sel s` whose JSON list in column `col` names
   * the product.
   */
  selects: { with?: (col: string) => SQL; pairs: (col: string) => SQL };
  /**
   * The products (alias `pr`) the codes of a JSON list `codes` name in this dimension (a
   * simulation's selection): a condition on `pr`, and the common table expression it needs.
   */
  products?: (codes: SQL) => { with?: SQL; where: SQL };
  /** The codes of the products that owners `ids` (JSON list) name through `link` (owner column `key`). */
  owned(link: SQL, key: SQL, ids: SQL): SQL;
}

const requestedIds = (cte: string) => sql.raw(`(select id from ${cte})`);

/**
 * A dimension of records a product names one of or none (`Dimension.named`, a product's brand):
 * the products' column `column` names the record of table `target`, and so does the link tables'
 * (`<owner>_<link>`). Its requested ids are the requested products' (`requested_<target>`).
 */
function named<F extends NamedTargetField>(d: {
  field: F;
  link: string;
  column: string;
  target: string;
}): ReadDimension & { field: F; named: true } {
  const [column, target] = [sql.raw(d.column), sql.raw(d.target)];
  const ids = requestedIds(`requested_${d.target}`);
  return {
    ...d,
    named: true,
    ids,
    reaches: (link, o, i) => sql`exists (select 1 from ${link} l
        where l.${o} = ${i} and +l.${column} in ${ids})`,
    selects: {
      pairs: (col) => sql`select s.i, s.l, pr.id from sel s join json_each(s.${sql.raw(col)}) j
        join ${target} b on b.code = j.value join products pr on pr.${column} = b.id`,
    },
    products: (codes) => ({
      where: sql`pr.${column} in (select b.id from ${target} b
        where b.code in (select value from json_each(${codes})))`,
    }),
    owned: (
      link,
      key,
      ids,
    ) => sql`select p.code from ${link} l join products p on p.${column} = l.${column}
      where l.${key} in (select value from json_each(${ids}))`,
  };
}

const READ_BY_FIELD: {
  [F in TargetField]: ReadDimension & { field: F } & (F extends NamedTargetField
      ? { named: true }
      : { named?: never });
} = {
  productCodes: {
    field: "productCodes",
    link: "products",
    column: "product_id",
    target: "products",
    ids: requestedIds("requested_products"),
    reaches: (link, o, i) =>
      sql`${i} in (select l.${o} from ${link} l where l.product_id in ${requestedIds("requested_products")})`,
    selects: {
      pairs: (col) => sql`select s.i, s.l, pr.id from sel s join json_each(s.${sql.raw(col)}) j
        join products pr on pr.code = j.value`,
    },
    owned: (
      link,
      key,
      ids,
    ) => sql`select p.code from ${link} l join products p on p.id = l.product_id
      where l.${key} in (select value from json_each(${ids}))`,
  },
  productGroupCodes: {
    field: "productGroupCodes",
    link: "product_groups",
    column: "product_group_id",
    target: "product_groups",
    ids: requestedIds("requested_groups"),
    // Its few group links are checked one by one (`+`): a list of every link of every requested
    // group cost more to build.
    reaches: (link, o, i) => sql`exists (select 1 from ${link} l
        where l.${o} = ${i} and +l.product_group_id in ${requestedIds("requested_groups")})`,
    // The named groups and every group below them, per selection.
    selects: {
      with: (col) => sql`below_${sql.raw(col)}(i, id) as (select s.i, pg.id from sel s
          join json_each(s.${sql.raw(col)}) j join product_groups pg on pg.code = j.value
        union select b.i, c.id from below_${sql.raw(col)} b
          join product_groups c on c.parent_id = b.id)`,
      pairs: (
        col,
      ) => sql`select s.i, s.l, pr.id from sel s join below_${sql.raw(col)} b on b.i = s.i
        join products pr on pr.product_group_id = b.id`,
    },
    // The named groups and every descendant (the forest is at most 8 deep), then their products.
    products: (codes) => ({
      with: sql`with recursive tree(id) as (
        select g.id from product_groups g where g.code in (select value from json_each(${codes}))
        union select g.id from product_groups g join tree on g.parent_id = tree.id)`,
      where: sql`pr.product_group_id in (select id from tree)`,
    }),
    owned: (link, key, ids) => sql`select p.code from products p where p.product_group_id in (
      with recursive g(id) as (select l.product_group_id from ${link} l
          where l.${key} in (select value from json_each(${ids}))
        union select c.id from g join product_groups c on c.parent_id = g.id)
      select id from g)`,
  },
  brandCodes: named({ field: "brandCodes", link: "brands", column: "brand_id", target: "brands" }),
};

/** The reader's dimensions, in the engine's order (`DIMENSIONS`). */
export const READ_DIMENSIONS: readonly ReadDimension[] = DIMENSIONS.map(
  (d) => READ_BY_FIELD[d.field],
);

/**
 * The dimensions of records a product names one of (`NAMED_DIMENSIONS`) as the reader meets
 * them: the product's field (`named`, its `brandCode`), the products' column naming the record
 * (`column`), and the SQL of the code a product aliased `alias` names (null: none).
 */
export const NAMED_READ = NAMED_DIMENSIONS.map(({ field, named }) => {
  const { column, target } = READ_BY_FIELD[field];
  return {
    named,
    column,
    target,
    codeOf: (alias: string) =>
      sql`(select t.code from ${sql.raw(target)} t where t.id = ${sql.raw(`${alias}.${column}`)})`,
  };
});

/** What `of` gives for each named dimension, by the product's field (`brandCode`). */
export const byNamed = <T>(of: (d: (typeof NAMED_READ)[number]) => T) =>
  Object.fromEntries(NAMED_READ.map((d) => [d.named, of(d)])) as Record<ProductCodeField, T>;

// The requested products (id, group, quantity rule and the record of each named dimension) and
// their groups with every ancestor (the forest is at most 8 deep), and the records the products
// name (`requested_<target>`), as common table expressions a statement declares once
// (`requested`) and reads wherever it needs them: SQLite materializes each once per statement.
// Written inline instead, each use walked the products again (500 row reads per use at 500 lines).
const namedColumns = sql.raw(NAMED_READ.map((d) => `, ${d.column}`).join(""));
const namedProductColumns = sql.raw(NAMED_READ.map((d) => `, pr.${d.column}`).join(""));
const requestedNamed = sql.raw(
  NAMED_READ.map(
    ({ column, target }) => `
  requested_${target}(id) as (
    select distinct ${column} from requested_products where ${column} is not null),`,
  ).join(""),
);
const requested = sql`with recursive
  requested_products(id, code, group_id, min_order_quantity, order_increment, max_order_quantity${namedColumns})
    as materialized (select pr.id, pr.code, pr.product_group_id, pr.min_order_quantity,
      pr.order_increment, pr.max_order_quantity${namedProductColumns}
    from products pr ${byLookupIndex} where pr.code in ${products}),${requestedNamed}
  requested_groups(id) as (
    select group_id from requested_products where group_id is not null
    union select g.parent_id from product_groups g join requested_groups r on g.id = r.id
      where g.parent_id is not null)`;

/**
 * A record reaches the products when it names nothing in any targeting dimension, or names one
 * of the requested codes in one (docs/pricing-rules.md §12; in memory: `reaching`). `owner` is
 * the record's kind (its link tables are `<owner>_<dimension's link>`), `id` its id column.
 */
const forProducts = (owner: "trade_condition" | "promotion", id: string) => {
  const [o, i] = [sql.raw(`${owner}_id`), sql.raw(id)];
  const dimensions = READ_DIMENSIONS.map((d) => ({ d, link: sql.raw(`${owner}_${d.link}`) }));
  const none = dimensions.map(
    ({ link }) => sql`not exists (select 1 from ${link} l where l.${o} = ${i})`,
  );
  const some = dimensions.map(({ d, link }) => d.reaches(link, o, i));
  return sql`((${sql.join(none, sql` and `)})
    or ${sql.join(
      some,
      sql`
    or `,
    )})`;
};

/**
 * The statements' shared building blocks, as SQL fragments of one query, for what `scope` sees
 * (docs/api/access.md §18): with costs (admin keys) the channel's COST lists and ACCRUAL
 * conditions are read too; else never.
 */
export function fragments(explain: boolean, scope: Visibility) {
  // G: the customer's groups that are assigned to this channel.
  const groups = sql`(select m.customer_group_id from customer_group_members m
    join customers cu on cu.id = m.customer_id
    join channel_customer_groups cg on cg.customer_group_id = m.customer_group_id
    join channels ch on ch.id = cg.channel_id
    where cu.code = ${q.customerCode} and ch.code = ${q.channelCode})`;
  // The channel's currency is its primary list's (facts.ts).
  const channelId = sql`(select id from channels where code = ${q.channelCode})`;
  const primaryCurrency = primaryCurrencyOf(channelId);
  const currency = channelCurrency(q.currency, channelId);
  const { customerReaching, channelReaching, reaching } = reachingLists(groups);
  // Without explain, records that cannot price now or later are not read at all. `active` is the
  // part of that test that does not depend on the moment (what the channel context keeps); the
  // rest, in memory, is `inWindow`.
  const active = (table: string) =>
    explain ? sql`1 = 1` : sql`${sql.raw(table)}.status = 'ACTIVE'`;
  const live = (table: string) => (explain ? sql`1 = 1` : liveAt(table, q.at));
  const inChannel = (link: string, owner: string, id: string) =>
    sql`(not exists (select 1 from ${sql.raw(link)} l where l.${sql.raw(owner)} = ${sql.raw(id)})
      or exists (select 1 from ${sql.raw(link)} l join channels ch on ch.id = l.channel_id
        where l.${sql.raw(owner)} = ${sql.raw(id)} and ch.code = ${q.channelCode}))`;
  const productIds = sql`(select id from requested_products)`;
  const groupIds = sql`(select id from requested_groups)`;
  // A promotion names no customer group, or one of G (in memory: `reachesGroups`).
  const forGroups = (link: string, owner: string, id: string, within: SQL = groups) => {
    const [l, o, i] = [sql.raw(link), sql.raw(owner), sql.raw(id)];
    return sql`(not exists (select 1 from ${l} l where l.${o} = ${i})
        or exists (select 1 from ${l} l where l.${o} = ${i} and l.customer_group_id in ${within}))`;
  };
  // The channel's FLOOR (and COST) pricelists, whatever their state: the engine says why one
  // does not apply.
  const ofKind = (kind: "FLOOR" | "COST") => sql`(select cp.pricelist_id from channel_pricelists cp
    join channels ch on ch.id = cp.channel_id join pricelists p on p.id = cp.pricelist_id
    where ch.code = ${q.channelCode} and p.kind = ${sql.raw(`'${kind}'`)})`;
  const floors = ofKind("FLOOR");
  // The conditions the scope sees, over the unaliased `trade_conditions` (a read key's lookup reads
  // no ACCRUAL one). The cached contexts are read per scope (reader.ts keys them by
  // `scope.key`), so they need no in-memory twin.
  const seenConditions = scope.tradeConditions ?? sql`1 = 1`;
  return {
    products,
    requested,
    productIds,
    groups,
    primaryCurrency,
    currency,
    reaching,
    customerReaching,
    channelReaching,
    active,
    live,
    inChannel,
    groupIds,
    forProducts,
    forGroups,
    floors,
    /** The channel's COST lists; null when the scope sees no costs: never read. */
    costs: scope.costs ? ofKind("COST") : null,
    seenConditions,
    pricing: pricingLists(reaching, currency, floors),
    explain,
  };
}

export type Fragments = ReturnType<typeof fragments>;

// ---------------------------------------------------------------------------------------------
// In memory: the same tests on records a cached context holds
// ---------------------------------------------------------------------------------------------

/** What a request can match: the values the SQL fragments above bind. */
export interface Audience {
  at: number;
  explain: boolean;
  customerCode: string | null;
  /** G: the customer's groups assigned to the channel. */
  groups: ReadonlySet<string>;
  /**
   * The requested products' codes in each targeting dimension (`reachedCodes`): the products
   * that exist, their groups and every ancestor, …
   */
  reached: { readonly [F in TargetField]: Codes };
}

/** A set of codes as `reaching` and `trimmed` read it: a Set, or a Map by code. */
interface Codes {
  readonly size: number;
  has(code: string): boolean;
  keys(): Iterable<string>;
}

/** The dimensions whose codes `reachedCodes` collects: all but the products' own. */
const COLLECTED = DIMENSIONS.filter((d) => d.field !== "productCodes");

/**
 * The codes of `products` in each targeting dimension, as the engine's `path` gives them. A
 * product's own code is its path in the products dimension, so that dimension's codes are the
 * map's keys. A path is its first code and what that code leads to (a group's ancestors, all of
 * them: a branch has at most 8 levels, MAX_GROUP_LEVELS, and a path holds 9), so a path whose
 * first code is already reached adds nothing: a cart's products share a few groups.
 */
export function reachedCodes(products: ReadonlyMap<string, ProductFacts>): Audience["reached"] {
  const reached = {} as Record<TargetField, Codes>;
  reached.productCodes = products;
  for (const d of COLLECTED) reached[d.field] = new Set();
  for (const [productCode, facts] of products) {
    const product = { productCode, groupPath: facts.groupPath, codes: facts };
    for (const d of COLLECTED) {
      const path = d.path(product);
      const codes = reached[d.field] as Set<string>;
      if (path.length > 0 && !codes.has(path[0]!)) for (const code of path) codes.add(code);
    }
  }
  return reached;
}

/** What a record names of products: nothing in any dimension reaches every product. */
export type Targets = TargetLists;

/** Records of one kind with an index from each code they name, by dimension, to their positions. */
export interface Reachable<T> {
  records: readonly T[];
  /** Positions of the records that name nothing: they reach every product. */
  everyProduct: readonly number[];
  byCode: { readonly [F in TargetField]: ReadonlyMap<string, number[]> };
}

/** Indexes records by the codes they name in each dimension, for `reaching`. */
export function reachable<T extends Targets>(records: readonly T[]): Reachable<T> {
  const everyProduct: number[] = [];
  const byCode = {} as Record<TargetField, Map<string, number[]>>;
  for (const d of DIMENSIONS) byCode[d.field] = new Map();
  const add = (index: Map<string, number[]>, code: string, at: number) => {
    const positions = index.get(code);
    if (positions) positions.push(at);
    else index.set(code, [at]);
  };
  records.forEach((record, at) => {
    if (namesNoProduct(record)) everyProduct.push(at);
    for (const d of DIMENSIONS)
      for (const code of listed(record, d.field)) add(byCode[d.field], code, at);
  });
  return { records, everyProduct, byCode };
}

/** `forProducts`: positions of the records reaching a requested product, ascending. */
export function reaching<T>(reach: Reachable<T>, audience: Audience): number[] {
  const hit = new Set(reach.everyProduct);
  for (const d of DIMENSIONS) {
    const index = reach.byCode[d.field];
    const reached = audience.reached[d.field];
    // The codes both name, walked from the smaller side: a 500-line cart's codes, or the few
    // the records name.
    if (index.size < reached.size) {
      for (const [code, positions] of index)
        if (reached.has(code)) for (const at of positions) hit.add(at);
    } else for (const code of reached.keys()) for (const at of index.get(code) ?? []) hit.add(at);
  }
  return [...hit].sort((a, b) => a - b);
}

/** `live` without its status test, which the contexts' SQL (`active`) already made. */
export const inWindow = (record: { validTo: number | null }, a: Audience) =>
  a.explain || isNotEnded(record, a.at);

/** `forGroups`: names no customer group, or one of G. */
export const reachesGroups = (codes: readonly string[], a: Audience) =>
  codes.length === 0 || codes.some((code) => a.groups.has(code));

const only = (codes: readonly string[], keep: Pick<Codes, "has">) =>
  codes.length === 0 ? codes : codes.filter((code) => keep.has(code));

/**
 * A record's links trimmed to the request, as `sharedLinks` (columns.ts) trims them in SQL: never
 * empty when the record has links and reaches the request, so "empty = all" keeps its meaning.
 */
export const trimmed = <T extends Targets & { customerGroupCodes: readonly string[] }>(
  record: T,
  a: Audience,
): T => {
  const out: Record<string, unknown> = {
    ...record,
    customerGroupCodes: only(record.customerGroupCodes, a.groups),
  };
  for (const { field } of DIMENSIONS) {
    const codes = record[field];
    if (codes !== undefined) out[field] = only(codes, a.reached[field]);
  }
  return out as T;
};

/** A pricelist as the chain walk needs it (a `ListRow` of columns.ts is one). */
interface ChainLink {
  id: number;
  role: string;
  status: string;
  currency: string;
  basePricelistId: number | null;
}

/**
 * `pricingLists`' `chain` walked in memory: the lists the `lists` that can price in `currency`
 * (candidates, ACTIVE, in the currency) and the floors derive from, up to MAX_DERIVATION_STEPS
 * steps, among `bases`;
 * added to `found` by id.
 */
export function chainOf<L extends ChainLink>(
  { lists, bases }: { lists: readonly L[]; bases: ReadonlyMap<number, L> },
  currency: string | null,
  found: Map<number, L>,
) {
  let step = lists.filter(
    (l) =>
      (l.role === "CANDIDATE" && l.status === "ACTIVE" && l.currency === currency) ||
      l.role === "FLOOR",
  );
  for (let steps = 1; steps <= MAX_DERIVATION_STEPS && step.length > 0; steps++) {
    const next: L[] = [];
    for (const list of step) {
      const base = list.basePricelistId === null ? undefined : bases.get(list.basePricelistId);
      if (!base) continue;
      found.set(base.id, base);
      next.push(base);
    }
    step = next;
  }
  return found;
}

/**
 * The lists whose rows a lookup reads (lookup.ts `pricesStatement`): those that can price
 * (candidates, ACTIVE, in the currency), the lists of their chains (`chain`), the channel's
 * floors and (admin keys) COST lists, and with explain every candidate in the currency. `lists`
 * are the contexts' own lists (candidates, floors, COST lists), `bases` what `chainOf` found for
 * them; ascending ids.
 */
export function priceListIds<L extends ChainLink>(
  lists: readonly L[],
  bases: ReadonlyMap<number, L>,
  currency: string | null,
  explain: boolean,
): number[] {
  const ids = new Set(bases.keys());
  for (const list of lists) {
    const candidate = list.role === "CANDIDATE" && list.currency === currency;
    const channelList = list.role === "FLOOR" || list.role === "COST";
    if (channelList || (candidate && (explain || list.status === "ACTIVE"))) {
      ids.add(list.id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}
