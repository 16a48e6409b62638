import { sql, type SQL } from "drizzle-orm";
import { rawBatch, type Db } from "../db/client";
import { affectedBy, byId, trackedKey, type Affected } from "./affects";
import { ENTITIES, OWNERS, TARGET_REFS, type OwnerKind, type Ref } from "./entities";
import { statesAt, type Entry, type Fields, type Tables } from "./history";
import { columnSql, tableSql } from "./tables";

/*
 * What `affects` needs beyond the entries themselves, read in one batch: for trade conditions,
 * promotions and derived pricelists, their rows and links now and every entry of them since the
 * first entry's request began (src/feed/history.ts takes them back to each request's start and
 * end); then, in a second batch, the codes of the records named by id.
 */

const json = (values: Iterable<string | number>) => JSON.stringify([...values]);
const inJson = (values: Iterable<string | number>) =>
  sql`(select value from json_each(${json(values)}))`;

type Row = Record<string, unknown>;

/** An audit_log row (SQL column names) as an entry. */
export function toEntry(row: Row): Entry {
  const parse = (text: unknown) => (text == null ? null : (JSON.parse(String(text)) as Fields));
  return {
    id: Number(row.id),
    at: Number(row.at),
    requestId: String(row.request_id),
    operation: String(row.operation),
    entity: String(row.entity),
    entityKey: JSON.parse(String(row.entity_key)) as Entry["entityKey"],
    action: row.action as Entry["action"],
    before: parse(row.before),
    after: parse(row.after),
  };
}

interface Needs {
  requests: Set<string>;
  owners: Map<OwnerKind, Set<number>>;
  derived: boolean;
}

function needsOf(entries: readonly Entry[]): Needs {
  const needs: Needs = { requests: new Set(), owners: new Map(), derived: false };
  for (const entry of entries) {
    const spec = ENTITIES[entry.entity];
    if (!spec?.owner && !spec?.derived) continue;
    needs.requests.add(entry.requestId);
    needs.derived ||= spec.derived === true;
    if (!spec.owner) continue;
    const ids = needs.owners.get(spec.owner.kind) ?? new Set<number>();
    for (const row of [entry.before, entry.after]) {
      if (row) ids.add(Number(row[spec.owner.field]));
    }
    needs.owners.set(spec.owner.kind, ids);
  }
  return needs;
}

/** A statement and what to do with its rows. */
interface Load {
  statement: SQL;
  apply(rows: Row[]): void;
}

interface Loaded {
  now: Tables;
  later: Entry[];
  bounds: Map<string, { first: number; last: number }>;
}

const ENTRY_COLUMNS = sql.raw(
  "id, at, request_id, operation, entity, entity_key, action, before, after",
);

/** Rows of `entity` now, filed as the history files them. */
function nowRows(loaded: Loaded, entity: string, statement: SQL): Load {
  return {
    statement,
    apply: (rows) => {
      const filed = new Map(rows.map((row) => [trackedKey(entity, row)!, row]));
      loaded.now.set(entity, filed);
    },
  };
}

function ownerLoads(loaded: Loaded, kind: OwnerKind, ids: Set<number>, since: SQL): Load[] {
  const { field, links } = OWNERS[kind];
  const own = kind === "tradeCondition" ? sql`, ${columnSql(kind, "scope", true)}` : sql``;
  const loads = [
    nowRows(
      loaded,
      kind,
      sql`select ${columnSql(kind, "id", true)}${own} from ${tableSql(kind)} where id in ${inJson(ids)}`,
    ),
    ...links.map((link) => {
      const owner = columnSql(link.entity, field);
      return nowRows(
        loaded,
        link.entity,
        sql`select ${columnSql(link.entity, field, true)}, ${columnSql(link.entity, link.target, true)}
          from ${tableSql(link.entity)} where ${owner} in ${inJson(ids)}`,
      );
    }),
  ];
  const path = `$.${field}`;
  loads.push({
    statement: sql`select ${ENTRY_COLUMNS} from audit_log where id >= ${since} and (
      (entity = ${kind} and entity_id in ${inJson(ids)}) or
      (entity in ${inJson(links.map((l) => l.entity))}
        and coalesce(json_extract(after, ${path}), json_extract(before, ${path})) in ${inJson(ids)}))`,
    apply: (rows) => loaded.later.push(...rows.map(toEntry)),
  });
  return loads;
}

function derivationLoads(loaded: Loaded, since: SQL): Load[] {
  return [
    nowRows(
      loaded,
      "pricelist",
      sql`select id, base_pricelist_id as "basePricelistId" from pricelists
        where base_pricelist_id is not null`,
    ),
    {
      statement: sql`select ${ENTRY_COLUMNS} from audit_log where id >= ${since} and entity = 'pricelist'`,
      apply: (rows) => loaded.later.push(...rows.map(toEntry)),
    },
  ];
}

async function load(db: Db, needs: Needs): Promise<Loaded> {
  const loaded: Loaded = { now: new Map(), later: [], bounds: new Map() };
  if (!needs.requests.size) return loaded;
  const requests = inJson(needs.requests);
  const since = sql`(select min(id) from audit_log where request_id in ${requests})`;
  const loads: Load[] = [
    {
      statement: sql`select request_id as "requestId", min(id) as "first", max(id) as "last"
        from audit_log where request_id in ${requests} group by request_id`,
      apply: (rows) => {
        for (const row of rows) {
          loaded.bounds.set(String(row.requestId), {
            first: Number(row.first),
            last: Number(row.last),
          });
        }
      },
    },
    ...[...needs.owners].flatMap(([kind, ids]) => ownerLoads(loaded, kind, ids, since)),
    ...(needs.derived ? derivationLoads(loaded, since) : []),
  ];
  const results = await rawBatch<Row[][]>(
    db,
    loads.map((l) => l.statement),
  );
  loads.forEach((l, i) => l.apply(results[i] ?? []));
  return loaded;
}

/** What each entry affects, by record (codes not yet looked up). */
export async function affectedOf(db: Db, entries: readonly Entry[]): Promise<Affected[]> {
  const loaded = await load(db, needsOf(entries));
  const points = [...loaded.bounds.values()].flatMap(({ first, last }) => [first - 1, last]);
  const states = statesAt(loaded.now, loaded.later, points, trackedKey);
  return entries.map((entry) => {
    const bounds = loaded.bounds.get(entry.requestId);
    const sides = bounds ? [states.get(bounds.first - 1)!, states.get(bounds.last)!] : [];
    return affectedBy(entry, sides);
  });
}

const CODED: Ref[] = [...TARGET_REFS, "channel", "customer", "customerGroup"];

/**
 * The codes of records named by id: from their tables, or, for records deleted since, from the
 * entry of their deletion. A record found in neither stays unnamed (its dimension is then open).
 */
export async function codesOf(db: Db, affected: readonly Affected[]): Promise<Map<string, string>> {
  const ids = new Map<Ref, Set<number>>(CODED.map((ref) => [ref, new Set()]));
  for (const records of affected.flatMap((a) => Object.values(a))) {
    for (const record of records) {
      const [ref, id] = record.split("#") as [Ref, string?];
      if (id !== undefined) ids.get(ref)?.add(Number(id));
    }
  }
  const refs = CODED.filter((ref) => ids.get(ref)!.size);
  if (!refs.length) return new Map();
  const statements = refs.flatMap((ref) => {
    const list = inJson(ids.get(ref)!);
    return [
      sql`select id, code from ${tableSql(ref)} where id in ${list}`,
      sql`select entity_id as id, entity_code as code from audit_log
        where entity = ${ref} and action = 'DELETE' and entity_id in ${list} order by id`,
    ];
  });
  const results = await rawBatch<Row[][]>(db, statements);
  const codes = new Map<string, string>();
  refs.forEach((ref, i) => {
    // Deletions first, so a record that exists again under its id is named as it is now.
    for (const row of [...results[2 * i + 1]!, ...results[2 * i]!]) {
      codes.set(byId(ref, row.id), String(row.code));
    }
  });
  return codes;
}
