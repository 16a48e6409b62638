import type { ChangeEvent } from "../pricing/vocabulary";

/**
 * What each audited entity means to the change feed (docs/api.md §13): the event a webhook
 * subscribes to it by, and whose prices a change of it may move. Declared once per entity;
 * test/changes.test.ts checks that every audited table has its line, so a new table cannot be
 * left out of the feed.
 *
 * Rows are the audit entries' `before` and `after` (API form: camelCase column names).
 */

/** The records `affects` names: pricelists by id, the others by code. */
export type Ref =
  "product" | "productGroup" | "pricelist" | "channel" | "customer" | "customerGroup";

/** The records (and their links) whose targets decide which prices a change reaches. */
export type OwnerKind = "tradeCondition" | "promotion";

export interface EntitySpec {
  event: ChangeEvent;
  /** A record addressed by code (or a pricelist by id): the row names itself. */
  self?: Ref;
  /** Row fields holding the id of another record whose prices move. */
  refs?: Record<string, Ref>;
  /** Pricelists named here reach the lists derived from them too (docs/api.md §5.8). */
  derived?: boolean;
  /** The trade condition or promotion the row belongs to, by its row field. */
  owner?: { kind: OwnerKind; field: string };
  /**
   * The row says itself whose prices it moves, in this field, in the feed's `affects` form (a
   * change request once applied: docs/api.md §16.6); a row without it moves no price.
   */
  affectsField?: string;
}

/** A trade condition's or promotion's link table: the target field and what it names. */
export interface OwnerLink {
  entity: string;
  target: string;
  ref: Ref;
}

/** Price dimensions of an answer; `affects` narrows each or leaves it open (docs/api.md §13.2). */
export type Dimension = "products" | "pricelists" | "channels" | "customers";

export const DIMENSION_OF: Record<Ref, Dimension> = {
  product: "products",
  productGroup: "products",
  pricelist: "pricelists",
  channel: "channels",
  customer: "customers",
  customerGroup: "customers",
};

export const OWNERS: Record<OwnerKind, { field: string; links: OwnerLink[] }> = {
  tradeCondition: {
    field: "tradeConditionId",
    links: [
      { entity: "tradeConditionProduct", target: "productId", ref: "product" },
      { entity: "tradeConditionProductGroup", target: "productGroupId", ref: "productGroup" },
      { entity: "tradeConditionChannel", target: "channelId", ref: "channel" },
      { entity: "tradeConditionCustomerGroup", target: "customerGroupId", ref: "customerGroup" },
      { entity: "tradeConditionCustomer", target: "customerId", ref: "customer" },
    ],
  },
  promotion: {
    field: "promotionId",
    links: [
      { entity: "promotionProduct", target: "productId", ref: "product" },
      { entity: "promotionProductGroup", target: "productGroupId", ref: "productGroup" },
      { entity: "promotionChannel", target: "channelId", ref: "channel" },
      { entity: "promotionCustomerGroup", target: "customerGroupId", ref: "customerGroup" },
    ],
  },
};

const ownedBy = (kind: OwnerKind, event: ChangeEvent): Record<string, EntitySpec> =>
  Object.fromEntries(
    OWNERS[kind].links.map((link) => [
      link.entity,
      { event, owner: { kind, field: OWNERS[kind].field } },
    ]),
  );

export const ENTITIES: Record<string, EntitySpec> = {
  product: { event: "products", self: "product" },
  productGroup: { event: "productGroups", self: "productGroup" },
  channel: { event: "channels", self: "channel" },
  channelCustomerGroup: {
    event: "channels",
    refs: { channelId: "channel", customerGroupId: "customerGroup" },
  },
  customer: { event: "customers", self: "customer" },
  customerGroupMember: {
    event: "customers",
    refs: { customerId: "customer", customerGroupId: "customerGroup" },
  },
  channelCustomer: { event: "customers", refs: { channelId: "channel", customerId: "customer" } },
  customerGroup: { event: "customerGroups", self: "customerGroup" },
  pricelist: { event: "pricelists", self: "pricelist", derived: true },
  channelPricelist: {
    event: "pricelists",
    refs: { pricelistId: "pricelist", channelId: "channel" },
  },
  customerGroupPricelist: {
    event: "pricelists",
    refs: { pricelistId: "pricelist", customerGroupId: "customerGroup" },
  },
  customerPricelist: {
    event: "pricelists",
    refs: { pricelistId: "pricelist", customerId: "customer" },
  },
  pricelistPrice: {
    event: "prices",
    refs: { pricelistId: "pricelist", productId: "product" },
    derived: true,
  },
  tradeCondition: { event: "tradeConditions", owner: { kind: "tradeCondition", field: "id" } },
  tradeConditionScale: {
    event: "tradeConditions",
    owner: { kind: "tradeCondition", field: "tradeConditionId" },
  },
  ...ownedBy("tradeCondition", "tradeConditions"),
  promotion: { event: "promotions", owner: { kind: "promotion", field: "id" } },
  ...ownedBy("promotion", "promotions"),
  changeRequest: { event: "changeRequests", affectsField: "affects", derived: true },
  changeRequestItem: { event: "changeRequests", affectsField: "affects" },
  changeRequestPolicy: { event: "changeRequests", affectsField: "affects" },
};

/** The entities of the given events, for the SQL that reads a webhook's changes. */
export const entitiesOf = (events: readonly ChangeEvent[]) =>
  Object.keys(ENTITIES).filter((entity) => events.includes(ENTITIES[entity]!.event));

/** The link table `entity` of an owner kind, if it is one. */
export const ownerLinkOf = (kind: OwnerKind, entity: string) =>
  OWNERS[kind].links.find((link) => link.entity === entity);
