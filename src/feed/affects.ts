import {
  DIMENSION_OF,
  ENTITIES,
  OWNERS,
  ownerLinkOf,
  TARGET_REFS,
  type Dimension,
  type OwnerKind,
  type Ref,
} from "./entities";
import type { Entry, Fields, KeyOf, Tables } from "./history";
import { DIMENSIONS } from "../pricing/targeting";

/*
 * Whose prices a change may move (docs/api/feed-and-webhooks.md §13.2), as records: `product#12`
 * (by id, its code looked up later), `product=P-A` (by code, when the row names itself),
 * `pricelist#7`. A dimension left out is open: any record of it may be affected. A trade
 * condition's or promotion's change reaches its targets as they were at the start and at the end of
 * the writing request (from the audit trail, src/feed/history.ts), so later edits do not rewrite
 * it.
 */

export type Affected = Partial<Record<Dimension, Set<string>>>;

const OPEN = "open" as const;

export const byId = (ref: Ref, id: unknown) => `${ref}#${String(id)}`;
const byCode = (ref: Ref, code: unknown) => `${ref}=${String(code)}`;

/** Rows the feed follows back in time: owners, their links, and pricelists' bases. */
export const trackedKey: KeyOf = (entity, row) => {
  if (entity === "pricelist" || entity in OWNERS) return String(row.id);
  for (const kind of Object.keys(OWNERS) as OwnerKind[]) {
    const link = ownerLinkOf(kind, entity);
    if (link) return `${String(row[OWNERS[kind].field])}:${String(row[link.target])}`;
  }
  return undefined;
};

/**
 * The ids a row names in `field`: its one value, or, in an entry that records all of an owner's
 * added or removed links at once (docs/api/feed-and-webhooks.md §11), the list under the plural
 * name (`customerGroupIds`).
 */
const idsIn = (row: Fields, field: string): unknown[] =>
  field in row ? [row[field]] : ((row[`${field}s`] as unknown[] | undefined) ?? []);

function add(affected: Affected, dimension: Dimension, records: Iterable<string>) {
  const set = (affected[dimension] ??= new Set());
  for (const record of records) set.add(record);
}

/** Lists deriving from `ids`, at any depth, in one state of the pricelists. */
function withDerived(ids: Set<string>, tables: Tables): string[] {
  const children = new Map<string, string[]>();
  for (const row of tables.get("pricelist")?.values() ?? []) {
    if (row.basePricelistId == null) continue;
    const base = byId("pricelist", row.basePricelistId);
    children.set(base, [...(children.get(base) ?? []), byId("pricelist", row.id)]);
  }
  const found = new Set(ids);
  for (const id of found) for (const child of children.get(id) ?? []) found.add(child);
  return [...found];
}

type Targets = Record<"products" | "channels" | "customers", Set<string> | typeof OPEN>;

/** Targets per state and owner: the entries of one request share both. */
const known = new WeakMap<Tables, Map<string, Targets>>();

/** An owner's targets in one state: per dimension, its records, or open. */
function targets(kind: OwnerKind, owner: Fields, id: string, tables: Tables): Targets {
  const memo = known.get(tables) ?? new Map<string, Targets>();
  known.set(tables, memo);
  const key = `${kind}:${id}`;
  if (!memo.has(key)) memo.set(key, targetsOf(kind, owner, id, tables));
  return memo.get(key)!;
}

function targetsOf(kind: OwnerKind, owner: Fields, id: string, tables: Tables): Targets {
  const linked = (refs: Ref[]) => {
    const records = new Set<string>();
    for (const link of OWNERS[kind].links.filter((l) => refs.includes(l.ref))) {
      for (const row of tables.get(link.entity)?.values() ?? []) {
        if (String(row[OWNERS[kind].field]) === id) records.add(byId(link.ref, row[link.target]));
      }
    }
    return records;
  };
  // An empty list of products or channels means all of them (docs/api/resources.md §2).
  const allIfEmpty = (records: Set<string>) => (records.size ? records : OPEN);
  return {
    products: allIfEmpty(linked([...TARGET_REFS])),
    channels: allIfEmpty(linked(["channel"])),
    customers: audience(kind, owner, linked),
  };
}

/** Whom a condition reaches by its scope; a promotion's groups, or everyone (docs/pricing-rules.md §4.1, §5.1). */
function audience(kind: OwnerKind, owner: Fields, linked: (refs: Ref[]) => Set<string>) {
  if (kind === "promotion") {
    const groups = linked(["customerGroup"]);
    return groups.size ? groups : OPEN;
  }
  if (owner.scope === "CUSTOMER_GROUP") return linked(["customerGroup"]);
  if (owner.scope === "CUSTOMER") return linked(["customer"]);
  return OPEN;
}

/**
 * A change of a trade condition, promotion, or one of their links or scales. A link reaches only
 * its own target, and only when the request really added or removed it (a replaced list writes
 * every link again); if the list was or became empty, all of that dimension is reached.
 */
function ownerAffected(entry: Entry, row: Fields, sides: Tables[], affected: Affected) {
  const spec = ENTITIES[entry.entity]!;
  const kind = spec.owner!.kind;
  const id = String(row[spec.owner!.field]);
  const states = sides.flatMap((tables) => {
    const owner = tables.get(kind)?.get(id);
    return owner ? [targets(kind, owner, id, tables)] : [];
  });
  const link = ownerLinkOf(kind, entry.entity);
  const target = link && byId(link.ref, row[link.target]);
  for (const dimension of ["products", "channels", "customers"] as const) {
    const sets = states.map((state) => state[dimension]);
    if (sets.includes(OPEN)) continue;
    const records = sets as Set<string>[];
    if (target && DIMENSION_OF[link.ref] === dimension) {
      const moved =
        records.length === 2
          ? records[0]!.has(target) !== records[1]!.has(target)
          : records.some((set) => set.has(target));
      add(affected, dimension, moved ? [target] : []);
    } else {
      add(
        affected,
        dimension,
        records.flatMap((set) => [...set]),
      );
    }
  }
}

/** The `affects` keys of each dimension, as the feed answers them (src/feed/read.ts). */
const NAMED_BY: [Dimension, Ref, string][] = [
  ...DIMENSIONS.map((d): [Dimension, Ref, string] => ["products", d.entity, d.field]),
  ["pricelists", "pricelist", "pricelistIds"],
  ["channels", "channel", "channelCodes"],
  ["customers", "customer", "customerCodes"],
  ["customers", "customerGroup", "customerGroupCodes"],
];

/**
 * What rows that name their own `affects` (spec.affectsField) move: a dimension is narrowed to
 * the records its keys list, open when a row leaves it out, and empty when no row names any
 * (a change request before it is applied moves no price).
 */
function namedAffected(rows: (Fields | null)[], field: string): Affected {
  const affected: Affected = {
    products: new Set(),
    pricelists: new Set(),
    channels: new Set(),
    customers: new Set(),
  };
  const open = new Set<Dimension>();
  for (const row of rows) {
    const value = row?.[field];
    if (value == null) continue;
    const named = (typeof value === "string" ? JSON.parse(value) : value) as Record<
      string,
      unknown[]
    >;
    for (const dimension of ["products", "pricelists", "channels", "customers"] as const) {
      const keys = NAMED_BY.filter(([d, , key]) => d === dimension && named[key] !== undefined);
      if (!keys.length) open.add(dimension);
      for (const [, ref, key] of keys) {
        add(
          affected,
          dimension,
          named[key]!.map((v) => (ref === "pricelist" ? byId(ref, v) : byCode(ref, v))),
        );
      }
    }
  }
  for (const dimension of open) delete affected[dimension];
  return affected;
}

/**
 * The records whose prices `entry` may move. `sides` are the tracked rows at the start and at
 * the end of the entry's request (needed for owners and derived pricelists only).
 */
export function affectedBy(entry: Entry, sides: Tables[]): Affected {
  const spec = ENTITIES[entry.entity];
  if (!spec) return {};
  const affected: Affected = spec.affectsField
    ? namedAffected([entry.before, entry.after], spec.affectsField)
    : {};
  for (const row of spec.affectsField ? [] : [entry.before, entry.after]) {
    if (!row) continue;
    if (spec.self) {
      add(affected, DIMENSION_OF[spec.self], [
        spec.self === "pricelist" ? byId("pricelist", row.id) : byCode(spec.self, row.code),
      ]);
    }
    for (const [field, ref] of Object.entries(spec.refs ?? {})) {
      add(
        affected,
        DIMENSION_OF[ref],
        idsIn(row, field).map((id) => byId(ref, id)),
      );
    }
    if (spec.owner) ownerAffected(entry, row, sides, affected);
  }
  if (spec.derived && affected.pricelists) {
    const named = affected.pricelists;
    for (const tables of sides) add(affected, "pricelists", withDerived(named, tables));
  }
  return affected;
}
