import { AUDIT_ENTITIES } from "../db/audit";
import { DIMENSIONS, type TargetEntity } from "../pricing/targeting";
import { CHANGE_EVENTS, type ChangeEvent } from "../pricing/vocabulary";
import { fieldsOf } from "./tables";

/**
 * What each audited entity means to the change feed (docs/api/feed-and-webhooks.md §13): the event
 * a webhook subscribes to it by, and whose prices a change of it may move. The audited entities are
 * listed once (src/db/schema/audited.ts) and most of what the feed needs is read off their tables
 * here: a record that prices name (`product`) addresses itself and is its own event (`products`),
 * any other record with an event of its own (`exchangeRate`) may move any price; a trade
 * condition's or promotion's rows (`tradeConditionScale`, its links `tradeConditionProduct`)
 * belong to it and its event; a link between records names them by its `<record>Id` fields. What
 * the schema cannot say is declared below (EVENTS, SELF_NAMED, DERIVED). test/feed/changes.test.ts
 * checks that every audited table has a spec, so a new table cannot be left out of the feed.
 *
 * Rows are the audit entries' `before` and `after` (API form: camelCase column names).
 */

/**
 * The records a trade condition or promotion targets products by, one per targeting dimension
 * (src/pricing/targeting.ts), each `affects` names under the dimension's field.
 */
export const TARGET_REFS: readonly TargetEntity[] = DIMENSIONS.map((d) => d.entity);

/** The records `affects` names: pricelists by id, the others by code. */
const REFS = [...TARGET_REFS, "pricelist", "channel", "customer", "customerGroup"] as const;
export type Ref = TargetEntity | "pricelist" | "channel" | "customer" | "customerGroup";

/** The records (and their links) whose targets decide which prices a change reaches. */
const OWNER_KINDS = ["tradeCondition", "promotion"] as const;
export type OwnerKind = (typeof OWNER_KINDS)[number];

/**
 * The event of each entity that is neither a record of its own nor part of a trade condition or
 * promotion: the links between records, by the resource whose subscribers hear of them.
 */
const EVENTS: Record<string, ChangeEvent> = {
  channelCustomerGroup: "channels",
  customerGroupMember: "customers",
  channelCustomer: "customers",
  channelPricelist: "pricelists",
  customerGroupPricelist: "pricelists",
  customerPricelist: "pricelists",
  pricelistPrice: "prices",
};

/**
 * Entities whose rows say themselves whose prices they move, in their `affects` field in the
 * feed's form (a change request once applied: docs/api/change-requests.md §17.6), by the event of
 * their resource.
 */
const SELF_NAMED: Record<string, ChangeEvent> = {
  changeRequest: "changeRequests",
  changeRequestItem: "changeRequests",
  changeRequestPolicy: "changeRequests",
  // A quote's rows move no price (no `affects`) but the one EFFECTIVE entry of an accepted
  // AGREEMENT, which names its customer, channel and products (src/db/agreements.ts).
  quote: "quotes",
  quoteLine: "quotes",
  quoteRevision: "quotes",
  quotePolicy: "quotes",
};

/** Entities whose pricelists reach the lists derived from them too (docs/api/relations.md §5.8). */
const DERIVED: ReadonlySet<string> = new Set(["pricelist", "pricelistPrice", "changeRequest"]);

export interface EntitySpec {
  event: ChangeEvent;
  /** A record addressed by code (or a pricelist by id): the row names itself. */
  self?: Ref;
  /**
   * Row fields holding the id of another record whose prices move. An entry recording an owner's
   * links at once (docs/api/feed-and-webhooks.md §11) holds the target's ids under the plural
   * (`customerGroupIds`).
   */
  refs?: Record<string, Ref>;
  /** Pricelists named here reach the lists derived from them too (docs/api/relations.md §5.8). */
  derived?: boolean;
  /** The trade condition or promotion the row belongs to, by its row field. */
  owner?: { kind: OwnerKind; field: string };
  /**
   * The row says itself whose prices it moves, in this field, in the feed's `affects` form (a
   * change request once applied: docs/api/change-requests.md §17.6); a row without it moves no
   * price.
   */
  affectsField?: string;
}

/** A trade condition's or promotion's link table: the target field and what it names. */
export interface OwnerLink {
  entity: string;
  target: string;
  ref: Ref;
}

/**
 * Price dimensions of an answer; `affects` narrows each or leaves it open
 * (docs/api/feed-and-webhooks.md §13.2).
 */
export type Dimension = "products" | "pricelists" | "channels" | "customers";

export const DIMENSION_OF: Record<Ref, Dimension> = {
  ...(Object.fromEntries(TARGET_REFS.map((ref) => [ref, "products"])) as Record<
    TargetEntity,
    Dimension
  >),
  pricelist: "pricelists",
  channel: "channels",
  customer: "customers",
  customerGroup: "customers",
};

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

/** The event named after a record or an owner (`products`), if there is one. */
const eventOf = (name: string) => {
  const event = `${name}s`;
  return isOneOf(CHANGE_EVENTS, event) ? event : undefined;
};

/** The records a row names by id: its fields `<record>Id` (`customerGroupId`). */
const refsOf = (entity: string): Record<string, Ref> =>
  Object.fromEntries(
    fieldsOf(entity).flatMap((field) => {
      const ref = field.replace(/Id$/, "");
      return field.endsWith("Id") && isOneOf(REFS, ref) ? [[field, ref]] : [];
    }),
  );

/** The trade condition or promotion whose rows `entity` holds (by its `<owner>Id` field). */
const ownerOf = (entity: string) =>
  OWNER_KINDS.find((kind) => entity.startsWith(kind) && fieldsOf(entity).includes(`${kind}Id`));

/** The rows of each owner kind that link it to a record (one `<record>Id` field each). */
const linksOf = (kind: OwnerKind): OwnerLink[] =>
  AUDIT_ENTITIES.filter((entity) => ownerOf(entity) === kind).flatMap((entity) =>
    Object.entries(refsOf(entity)).map(([target, ref]) => ({ entity, target, ref })),
  );

export const OWNERS = Object.fromEntries(
  OWNER_KINDS.map((kind) => [kind, { field: `${kind}Id`, links: linksOf(kind) }]),
) as Record<OwnerKind, { field: string; links: OwnerLink[] }>;

/** What the feed makes of `entity`; undefined when neither the schema nor EVENTS says. */
function specOf(entity: string): EntitySpec | undefined {
  const derived = DERIVED.has(entity) ? { derived: true } : {};
  const named = SELF_NAMED[entity];
  if (named) return { event: named, affectsField: "affects", ...derived };
  const own = eventOf(entity);
  if (own && isOneOf(REFS, entity)) return { event: own, self: entity, ...derived };
  if (own && isOneOf(OWNER_KINDS, entity))
    return { event: own, owner: { kind: entity, field: "id" } };
  const kind = ownerOf(entity);
  if (kind) return { event: eventOf(kind)!, owner: { kind, field: OWNERS[kind].field } };
  // Any other record with an event of its own (an exchange rate, docs/api/prices.md §16.2) may move
  // any price: every dimension open.
  if (own) return { event: own };
  const event = EVENTS[entity];
  return event && { event, refs: refsOf(entity), ...derived };
}

export const ENTITIES: Record<string, EntitySpec> = Object.fromEntries(
  AUDIT_ENTITIES.flatMap((entity) => {
    const spec = specOf(entity);
    return spec ? [[entity, spec]] : [];
  }),
);

/** The entities of the given events, for the SQL that reads a webhook's changes. */
export const entitiesOf = (events: readonly ChangeEvent[]) =>
  Object.keys(ENTITIES).filter((entity) => events.includes(ENTITIES[entity]!.event));

/** The link table `entity` of an owner kind, if it is one. */
export const ownerLinkOf = (kind: OwnerKind, entity: string) =>
  OWNERS[kind].links.find((link) => link.entity === entity);
