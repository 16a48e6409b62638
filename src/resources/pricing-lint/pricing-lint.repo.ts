import { sql } from "drizzle-orm";
import { linkedCodes } from "../../db/links";
import { customerLinks } from "../../db/reads";
import type { Db } from "../../db/client";
import { ALWAYS } from "../../db/schema";
import {
  conditionColumns,
  namedCodes,
  promotionColumns,
  promotionOf,
} from "../../db/pricing/columns";
import {
  channelCostList,
  inForce,
  live,
  mayDeriveFurther,
  notEnded,
  overlapping,
  primaryCurrency,
} from "../../db/pricing/facts";
import { params } from "../../db/pricing/query";
import { NAMED_READ } from "../../db/pricing/reach";
import { PRICELIST_KINDS, PRICELIST_SCOPES, ROUNDING_MODES, STATUSES } from "../../pricing";
import type { LintFacts, QuoteFloorRow } from "../../pricing/lint";
import {
  codes,
  decodedBatch,
  flag,
  int,
  member,
  nullableInt,
  nullableMember,
  nullableText,
  select,
  statement,
  text,
  type RowOf,
} from "../../db/rows";

/**
 * What the linter judges (docs/pricing-lint.md §12), read in ONE D1 round trip: the ACTIVE
 * pricelists, trade conditions and promotions with their links, the product-group forest, the
 * products the rules need by name, the channels, the customers a stackable names, aggregates over
 * the price rows (a 100k catalogue has over a million of them; they never leave D1): first tiers
 * above the product's smallest quantity, FLOOR rows above the primary list, holes in timelines,
 * tier cliffs, prices and floors below the channel's cost; and the steps of derived lists
 * between currencies without a rate, or with rates that make their smallest price 0. Windows,
 * `live`, the derivation depth, a channel's cost and its currency are the pricing reader's facts
 * (src/db/pricing/facts.ts).
 */

const pricelistsStatement = statement(
  select({
    id: int(sql`p.id`),
    status: member(STATUSES, sql`p.status`),
    kind: member(PRICELIST_KINDS, sql`p.kind`),
    scope: member(PRICELIST_SCOPES, sql`p.scope`),
    validFrom: nullableInt(sql`p.valid_from`),
    validTo: nullableInt(sql`p.valid_to`),
    assigned: flag(sql`(exists (select 1 from channel_pricelists l where l.pricelist_id = p.id)
      or exists (select 1 from customer_group_pricelists l where l.pricelist_id = p.id)
      or exists (select 1 from customer_pricelists l where l.pricelist_id = p.id))`),
    isBase: flag(sql`exists (select 1 from pricelists d
      where d.base_pricelist_id = p.id and d.status <> 'ARCHIVED')`),
  }),
  sql`from pricelists p where p.status = 'ACTIVE'`,
);

// The linter judges every link of a record: the pricing reader's column sets, not trimmed.
const conditionsStatement = statement(
  conditionColumns(params, undefined, "NONE"),
  sql`from trade_conditions where trade_conditions.status = 'ACTIVE'`,
);

const promotionsStatement = statement(
  promotionColumns(params, undefined, "NONE"),
  sql`from promotions where promotions.status = 'ACTIVE'`,
);

const productGroupsStatement = statement(
  select({
    code: text(sql`g.code`),
    parentCode: nullableText(sql`parent.code`),
    hasOwnProducts: flag(sql`exists (select 1 from products pr where pr.product_group_id = g.id)`),
  }),
  sql`from product_groups g left join product_groups parent on parent.id = g.parent_id`,
);

// Every product an ACTIVE condition lists, and the first of each combination of group and
// record of each named dimension (its brand; each may be none): the products whose reach may
// differ (docs/pricing-lint.md §3).
const productsStatement = statement(
  select({
    code: text(sql`pr.code`),
    groupCode: nullableText(sql`g.code`),
    ...namedCodes((d) => d.codeOf("pr")),
  }),
  sql`from products pr left join product_groups g on g.id = pr.product_group_id
    where pr.id in (select l.product_id from trade_condition_products l
        join trade_conditions t on t.id = l.trade_condition_id where t.status = 'ACTIVE')
      or pr.id in (select min(id) from products
        group by ${sql.raw(["product_group_id", ...NAMED_READ.map((d) => d.column)].join(", "))})`,
);

const channelsStatement = statement(
  select({
    code: text(sql`channels.code`),
    isActive: flag(sql`channels.is_active`),
    hasPrimary: flag(sql`${primaryCurrency(sql`channels.id`)} is not null`),
    customerGroupCodes: codes(
      linkedCodes(
        "channel_customer_groups",
        "channel_id",
        "channels.id",
        "customer_group_id",
        "customer_groups",
      ),
    ),
  }),
  sql`from channels`,
);

const customersStatement = statement(
  select({
    code: text(sql`customers.code`),
    channelCodes: codes(customerLinks.columns.channelCodes),
    customerGroupCodes: codes(customerLinks.columns.customerGroupCodes),
  }),
  sql`from customers where customers.id in (select l.customer_id from trade_condition_customers l
    join trade_conditions t on t.id = l.trade_condition_id
    where t.status = 'ACTIVE' and t.stackable = 1 and t.scope = 'CUSTOMER')`,
);

/** The ACTIVE lists' own rows whose first tier for a product is above its smallest quantity. */
const firstTierGapsStatement = (now: number) =>
  statement(
    select({
      pricelistId: int(sql`gap.pricelist_id`),
      kind: member(PRICELIST_KINDS, sql`p.kind`),
      productCode: text(sql`pr.code`),
      firstTier: int(sql`gap.first_tier`),
      minOrderQuantity: int(sql`pr.min_order_quantity`),
    }),
    // Grouped on the primary key's order, before any join: one pass over the rows, not a lookup each.
    sql`from (select pp.pricelist_id, pp.product_id, min(pp.min_quantity) as first_tier
        from pricelist_prices pp
        where pp.pricelist_id in (select p.id from pricelists p where ${live("p", now)})
          and ${notEnded("pp", now)}
        group by pp.pricelist_id, pp.product_id having min(pp.min_quantity) > 1) gap
      join pricelists p on p.id = gap.pricelist_id
      join products pr on pr.id = gap.product_id
    where gap.first_tier > pr.min_order_quantity
      and (pr.max_order_quantity is null or pr.max_order_quantity >= pr.min_order_quantity)`,
  );

/** The ACTIVE GRADUATED lists' products whose first tier is above 1 (docs/pricing-lint.md §18). */
const graduatedFirstTiersStatement = (now: number) =>
  statement(
    select({
      pricelistId: int(sql`gap.pricelist_id`),
      productCode: text(sql`pr.code`),
      firstTier: int(sql`gap.first_tier`),
    }),
    sql`from (select pp.pricelist_id, pp.product_id, min(pp.min_quantity) as first_tier
        from pricelist_prices pp
        where pp.pricelist_id in (select p.id from pricelists p
          where ${live("p", now)} and p.tier_mode = 'GRADUATED') and ${notEnded("pp", now)}
        group by pp.pricelist_id, pp.product_id having min(pp.min_quantity) > 1) gap
      join products pr on pr.id = gap.product_id
    order by gap.pricelist_id, pr.code`,
  );

/**
 * FLOOR rows of an active channel's FLOOR lists above its primary list's row for the product
 * (per piece: each row's amount is for its price unit), both lists ACTIVE, in one currency and
 * valid together from now on. `quantity` is where both
 * rows are in force; `nextQuantity` the next tier of either list (null: none). CROSS JOIN keeps
 * SQLite's join order: each FLOOR row, then the primary's rows of its product by primary key.
 * Left to itself the planner started from the primary's rows and read every pricelist's rows of
 * each product (3.9 s instead of 0.4 s on the 100k bench data).
 */
const floorsOverListStatement = (now: number) =>
  statement(
    select({
      channelCode: text(sql`o.code`),
      floorPricelistId: int(sql`o.fid`),
      primaryPricelistId: int(sql`o.lid`),
      productCode: text(sql`pr.code`),
      quantity: int(sql`max(o.fq, o.lq)`),
      // min() of two values that may be null: the smaller one, null only when both are.
      nextQuantity: nullableInt(sql`min(coalesce(o.nf, o.nl), coalesce(o.nl, o.nf))`),
      floorAmount: int(sql`o.fa`),
      floorUnit: int(sql`o.fu`),
      listAmount: int(sql`o.la`),
      listUnit: int(sql`o.lu`),
      minimum: int(sql`pr.min_order_quantity`),
      increment: int(sql`pr.order_increment`),
      maximum: nullableInt(sql`pr.max_order_quantity`),
    }),
    sql`from (select ch.code, f.id as fid, pl.id as lid, fr.product_id, fr.min_quantity as fq,
        lr.min_quantity as lq, fr.amount as fa, lr.amount as la, fr.price_unit as fu,
        lr.price_unit as lu,
        (select min(x.min_quantity) from pricelist_prices x where x.pricelist_id = f.id
          and x.product_id = fr.product_id and x.min_quantity > fr.min_quantity) as nf,
        (select min(x.min_quantity) from pricelist_prices x where x.pricelist_id = pl.id
          and x.product_id = lr.product_id and x.min_quantity > lr.min_quantity) as nl
      from channels ch
        cross join channel_pricelists cp on cp.channel_id = ch.id and cp.is_primary = 1
        cross join pricelists pl on pl.id = cp.pricelist_id
        cross join channel_pricelists cf on cf.channel_id = ch.id
        cross join pricelists f on f.id = cf.pricelist_id
        cross join pricelist_prices fr on fr.pricelist_id = f.id
        cross join pricelist_prices lr on lr.pricelist_id = pl.id and lr.product_id = fr.product_id
      where ch.is_active = 1 and f.kind = 'FLOOR' and ${live("f", now)}
        and ${live("pl", now)} and f.currency = pl.currency and ${overlapping("pl", "f")}
        and ${notEnded("fr", now)} and ${notEnded("lr", now)} and ${overlapping("fr", "lr")}
        and fr.amount * lr.price_unit > lr.amount * fr.price_unit) o
      join products pr on pr.id = o.product_id`,
  );

/**
 * Holes in the timelines of ACTIVE, not ended lists (docs/pricing-lint.md §8): a row that ends
 * (validTo) before the next row of its list, product and tier starts, the hole not over at
 * `now`. Read from the rows that end (a scan of the covering index), each one's successor by the
 * timeline's unique key.
 */
const priceGapsStatement = (now: number) =>
  statement(
    select({
      pricelistId: int(sql`g.pricelist_id`),
      productCode: text(sql`pr.code`),
      minQuantity: int(sql`g.min_quantity`),
      from: int(sql`g.valid_to`),
      to: int(sql`g.next_from`),
    }),
    sql`from (select pp.pricelist_id, pp.product_id, pp.min_quantity, pp.valid_to,
        (select min(coalesce(x.valid_from, ${ALWAYS})) from pricelist_prices x
          where x.pricelist_id = pp.pricelist_id and x.product_id = pp.product_id
            and x.min_quantity = pp.min_quantity
            and coalesce(x.valid_from, ${ALWAYS}) >= pp.valid_to) as next_from
        from pricelist_prices pp
        where pp.valid_to is not null
          and pp.pricelist_id in (select p.id from pricelists p where ${live("p", now)})) g
      join products pr on pr.id = g.product_id
    where g.next_from > g.valid_to and g.next_from > ${now}
    order by g.pricelist_id, pr.code, g.min_quantity, g.valid_to`,
  );

/**
 * The chains of ACTIVE derived SALES lists in force, up to MAX_DERIVATION_STEPS steps (facts.ts):
 * `steps` (§13, §16).
 */
const stepsOf = (now: number) =>
  sql`with recursive steps(root, at, list_id, base_id, n) as (
        select p.id, max(${now}, coalesce(p.valid_from, ${now})), p.id, p.base_pricelist_id, 1
          from pricelists p
          where ${live("p", now)} and p.kind = 'SALES' and p.base_pricelist_id is not null
        union all select s.root, s.at, s.base_id, b.base_pricelist_id, s.n + 1
          from steps s join pricelists b on b.id = s.base_id
          where b.base_pricelist_id is not null and ${mayDeriveFurther(sql`s.n`)})`;

/**
 * The steps between two currencies of the chains of ACTIVE derived SALES lists in force
 * (docs/pricing-lint.md §13), up to 3 steps whatever the bases' status, for which no rate of the
 * pair (base's currency → the derived list's) has started by `at`: now, or the list's validFrom
 * when it starts later.
 */
const missingRatesStatement = (now: number) =>
  statement(
    select({
      pricelistId: int(sql`s.root`),
      derivedId: int(sql`s.list_id`),
      baseId: int(sql`s.base_id`),
      from: text(sql`b.currency`),
      to: text(sql`l.currency`),
      at: int(sql`s.at`),
    }),
    sql`from steps s join pricelists l on l.id = s.list_id join pricelists b on b.id = s.base_id
    where l.currency <> b.currency and not exists (select 1 from exchange_rates x
      where x.from_currency = b.currency and x.to_currency = l.currency and x.valid_from <= s.at)
    order by s.root, s.n`,
    stepsOf(now),
  );

/**
 * The rates of the currency steps of those chains that hold at `at` or start later (the rate in
 * force and every later one of the pair), with the step's adjustment and rounding and the
 * base's smallest positive own amount in force from now on and a product that has it (SQLite
 * takes a bare column from the row of `min`): docs/pricing-lint.md §16 judges whether the step
 * makes it 0.
 */
const rateStepsStatement = (now: number) =>
  statement(
    select({
      pricelistId: int(sql`s.root`),
      derivedId: int(sql`s.list_id`),
      baseId: int(sql`s.base_id`),
      from: text(sql`b.currency`),
      to: text(sql`l.currency`),
      rate: text(sql`x.rate`),
      rateFrom: int(sql`x.valid_from`),
      adjustmentBp: int(sql`coalesce(l.adjustment_bp, 0)`),
      roundingMode: nullableMember(ROUNDING_MODES, sql`l.rounding_mode`),
      roundingStep: nullableInt(sql`l.rounding_step`),
      roundingEnding: nullableInt(sql`l.rounding_ending`),
      smallestAmount: int(sql`m.amount`),
      productCode: text(sql`pr.code`),
    }),
    sql`from steps s join pricelists l on l.id = s.list_id join pricelists b on b.id = s.base_id
      join exchange_rates x on x.from_currency = b.currency and x.to_currency = l.currency
      join smallest m on m.pricelist_id = s.base_id
      join products pr on pr.id = m.product_id
    where l.currency <> b.currency
      and x.valid_from >= coalesce((select max(y.valid_from) from exchange_rates y
        where y.from_currency = b.currency and y.to_currency = l.currency
          and y.valid_from <= s.at), ${ALWAYS})
    order by s.root, s.n, x.valid_from`,
    sql`${stepsOf(now)}, smallest(pricelist_id, amount, product_id) as (
        select pp.pricelist_id, min(pp.amount), pp.product_id from pricelist_prices pp
        where pp.pricelist_id in (select t.base_id from steps t) and pp.amount > 0
          and ${notEnded("pp", now)}
        group by pp.pricelist_id)`,
  );

/**
 * Adjacent tiers of the own rows in force now of ACTIVE SALES lists not ended, where m2 − 1
 * pieces on the lower tier cost more than m2 on the higher one, per piece
 * ((m2 − 1) × a1 × u2 > m2 × a2 × u1; docs/pricing-lint.md §14), with the tier after m2 and the
 * product's quantity rule: the rule keeps only quantities a line may ask for, which can only
 * narrow what this finds. The window runs over the timeline key's order (list, product, tier), so
 * the rows are read once, in order.
 */
const tierCliffsStatement = (now: number) =>
  statement(
    select({
      pricelistId: int(sql`c.pricelist_id`),
      productCode: text(sql`pr.code`),
      m1: int(sql`c.m1`),
      a1: int(sql`c.a1`),
      u1: int(sql`c.u1`),
      m2: int(sql`c.m2`),
      a2: int(sql`c.a2`),
      u2: int(sql`c.u2`),
      m3: nullableInt(sql`c.m3`),
      minimum: int(sql`pr.min_order_quantity`),
      increment: int(sql`pr.order_increment`),
      maximum: nullableInt(sql`pr.max_order_quantity`),
    }),
    sql`from (select pp.pricelist_id, pp.product_id, pp.min_quantity as m2, pp.amount as a2,
        pp.price_unit as u2, lag(pp.min_quantity) over w as m1, lag(pp.amount) over w as a1,
        lag(pp.price_unit) over w as u1, lead(pp.min_quantity) over w as m3
        from pricelist_prices pp
        where pp.pricelist_id in (select p.id from pricelists p
            where ${live("p", now)} and p.kind = 'SALES' and p.tier_mode = 'VOLUME')
          and ${inForce("pp", now)}
        window w as (partition by pp.pricelist_id, pp.product_id order by pp.min_quantity)) c
      join products pr on pr.id = c.product_id
    where c.m1 is not null and c.a1 > 0 and (c.m2 - 1) * c.a1 * c.u2 > c.m2 * c.a2 * c.u1
    order by c.pricelist_id, pr.code, c.m2`,
  );

/**
 * The channel's cost of a product for the list `l` (docs/pricing-rules.md §23): the COST list of
 * channel `ch` in `l`'s currency that gives the product's cost from now on (facts.ts
 * `channelCostList`, docs/pricing-lint.md §15).
 */
const channelCost = (now: number) =>
  channelCostList({
    channelId: sql`ch.id`,
    currency: sql`l.currency`,
    productId: sql`cr.product_id`,
    at: now,
  });

/**
 * Rows of an active channel's ACTIVE SALES and FLOOR lists (their own rows) below the channel's
 * cost of the product per piece, both rows in force together from now on, with the quantities
 * where both are the tier (as floorsOverListStatement). Read from the channel's COST rows, then
 * the lists' rows of the same product by primary key; the amounts are compared as SQLite numbers
 * here and exactly by the rule. A channel without an ACTIVE COST list costs nothing.
 */
const belowCostStatement = (now: number) =>
  statement(
    select({
      channelCode: text(sql`o.code`),
      pricelistId: int(sql`o.lid`),
      kind: member(PRICELIST_KINDS, sql`o.kind`),
      costPricelistId: int(sql`o.cid`),
      productCode: text(sql`pr.code`),
      quantity: int(sql`max(o.lq, o.cq)`),
      nextQuantity: nullableInt(sql`min(coalesce(o.nl, o.nc), coalesce(o.nc, o.nl))`),
      amount: int(sql`o.la`),
      priceUnit: int(sql`o.lu`),
      costAmount: int(sql`o.ca`),
      costPriceUnit: int(sql`o.cu`),
      minimum: int(sql`pr.min_order_quantity`),
      increment: int(sql`pr.order_increment`),
      maximum: nullableInt(sql`pr.max_order_quantity`),
    }),
    sql`from (select ch.code, l.id as lid, l.kind, c.id as cid, lr.product_id,
        lr.min_quantity as lq, cr.min_quantity as cq, lr.amount as la, lr.price_unit as lu,
        cr.amount as ca, cr.price_unit as cu,
        (select min(x.min_quantity) from pricelist_prices x where x.pricelist_id = l.id
          and x.product_id = lr.product_id and x.min_quantity > lr.min_quantity) as nl,
        (select min(x.min_quantity) from pricelist_prices x where x.pricelist_id = c.id
          and x.product_id = cr.product_id and x.min_quantity > cr.min_quantity) as nc
      from channels ch
        cross join channel_pricelists cc on cc.channel_id = ch.id
        cross join pricelists c on c.id = cc.pricelist_id
        cross join pricelist_prices cr on cr.pricelist_id = c.id
        cross join channel_pricelists cl on cl.channel_id = ch.id
        cross join pricelists l on l.id = cl.pricelist_id
        cross join pricelist_prices lr on lr.pricelist_id = l.id and lr.product_id = cr.product_id
      where ch.is_active = 1 and c.kind = 'COST' and ${live("c", now)}
        and l.kind in ('SALES', 'FLOOR') and ${live("l", now)} and l.currency = c.currency
        and ${notEnded("lr", now)} and ${notEnded("cr", now)} and ${overlapping("lr", "cr")}
        and lr.amount * cr.price_unit < cr.amount * lr.price_unit
        and c.id = ${channelCost(now)}) o
      join products pr on pr.id = o.product_id`,
  );

/** ACTIVE FLOOR lists derived from a COST list with a negative adjustment (§15). */
const floorsUnderCostStatement = statement(
  select({
    floorPricelistId: int(sql`f.id`),
    costPricelistId: int(sql`c.id`),
    adjustmentBp: int(sql`f.adjustment_bp`),
  }),
  sql`from pricelists f join pricelists c on c.id = f.base_pricelist_id
    where f.kind = 'FLOOR' and f.status = 'ACTIVE' and c.kind = 'COST' and f.adjustment_bp < 0`,
);

/**
 * QUOTE_BELOW_FLOOR's facts (docs/pricing-lint.md §17): per line of a SENT or ACCEPTED quote not
 * past its validTo, each ACTIVE FLOOR list of its channel in its currency in force now with the
 * row it has for the line's product and quantity (the tier: the largest minQuantity ≤ the
 * quantity, in force now): its own, or for a list without own rows of the product, its base's
 * in the same currency with the derivation. The rule picks and compares.
 */
const quoteFloorsStatement = (now: number) =>
  statement(
    select({
      quoteId: int(sql`q.id`),
      status: member(["SENT", "ACCEPTED"] as const, sql`q.status`),
      channelCode: text(sql`ch.code`),
      customerCode: text(sql`cu.code`),
      productCode: text(sql`pr.code`),
      quantity: int(sql`l.quantity`),
      quotedUnitAmount: int(sql`l.quoted_unit_amount`),
      quotedPriceUnit: int(sql`l.price_unit`),
      floorPricelistId: int(sql`f.id`),
      priority: int(sql`f.priority`),
      own: flag(sql`(r.pricelist_id = f.id)`),
      amount: int(sql`r.amount`),
      priceUnit: int(sql`r.price_unit`),
      basePricelistId: nullableInt(sql`f.base_pricelist_id`),
      adjustmentBp: nullableInt(sql`f.adjustment_bp`),
      roundingMode: nullableMember(ROUNDING_MODES, sql`f.rounding_mode`),
      roundingStep: nullableInt(sql`f.rounding_step`),
      roundingEnding: nullableInt(sql`f.rounding_ending`),
    }),
    sql`from quotes q
      join quote_lines l on l.quote_id = q.id
      join products pr on pr.id = l.product_id
      join channels ch on ch.id = q.channel_id
      join customers cu on cu.id = q.customer_id
      join channel_pricelists cf on cf.channel_id = q.channel_id
      join pricelists f on f.id = cf.pricelist_id
      join pricelist_prices r on r.product_id = l.product_id and r.pricelist_id = (
        case when exists (select 1 from pricelist_prices o where o.pricelist_id = f.id
          and o.product_id = l.product_id) then f.id else f.base_pricelist_id end)
    where q.status in ('SENT', 'ACCEPTED') and q.valid_to > ${now}
      and f.kind = 'FLOOR' and f.status = 'ACTIVE' and f.currency = q.currency
      and ${inForce("f", now)} and ${inForce("r", now)}
      and (r.pricelist_id = f.id
        or (select b.currency from pricelists b where b.id = f.base_pricelist_id) = f.currency)
      and r.min_quantity = (select max(x.min_quantity) from pricelist_prices x
        where x.pricelist_id = r.pricelist_id and x.product_id = r.product_id
          and x.min_quantity <= l.quantity and ${inForce("x", now)})`,
  );

/** A row of quoteFloorsStatement with its derivation as the engine takes one. */
function quoteFloorOf({
  basePricelistId,
  adjustmentBp,
  roundingMode,
  roundingStep,
  roundingEnding,
  ...row
}: RowOf<ReturnType<typeof quoteFloorsStatement>>): QuoteFloorRow {
  const rounding =
    roundingMode === null
      ? null
      : { mode: roundingMode, step: roundingStep ?? 1, ending: roundingEnding ?? 0 };
  const derived = !row.own && basePricelistId !== null;
  return {
    ...row,
    derivation: derived ? { basePricelistId, adjustmentBp: adjustmentBp ?? 0, rounding } : null,
  };
}

/** The linter's facts at `now`, in one round trip. */
export async function loadLintFacts(db: Db, now: number): Promise<LintFacts> {
  const [
    pricelists,
    tradeConditions,
    promotions,
    productGroups,
    products,
    channels,
    customers,
    firstTierGaps,
    floors,
    priceGaps,
    missingRates,
    rateSteps,
    tierCliffs,
    below,
    floorsUnderCost,
    quoteFloors,
    graduatedFirstTiers,
  ] = await decodedBatch(db, [
    pricelistsStatement,
    conditionsStatement,
    promotionsStatement,
    productGroupsStatement,
    productsStatement,
    channelsStatement,
    customersStatement,
    firstTierGapsStatement(now),
    floorsOverListStatement(now),
    priceGapsStatement(now),
    missingRatesStatement(now),
    rateStepsStatement(now),
    tierCliffsStatement(now),
    belowCostStatement(now),
    floorsUnderCostStatement,
    quoteFloorsStatement(now),
    graduatedFirstTiersStatement(now),
  ] as const);
  return {
    now,
    pricelists,
    tradeConditions,
    promotions: promotions.map(promotionOf),
    productGroups,
    products,
    channels,
    customers,
    firstTierGaps,
    graduatedFirstTiers,
    priceGaps,
    missingRates,
    rateSteps: rateSteps.map(({ roundingMode, roundingStep, roundingEnding, ...step }) => ({
      ...step,
      rounding:
        roundingMode === null
          ? null
          : { mode: roundingMode, step: roundingStep ?? 1, ending: roundingEnding ?? 0 },
    })),
    tierCliffs: tierCliffs.map(({ minimum, increment, maximum, ...cliff }) => ({
      ...cliff,
      rule: { minimum, increment, maximum },
    })),
    floorsOverList: floors.map(({ minimum, increment, maximum, ...row }) => ({
      ...row,
      rule: { minimum, increment, maximum },
    })),
    belowCost: below.map(({ minimum, increment, maximum, ...row }) => ({
      ...row,
      rule: { minimum, increment, maximum },
    })),
    floorsUnderCost,
    quoteFloors: quoteFloors.map(quoteFloorOf),
  };
}
