#!/usr/bin/env node
/**
 * Generates the audit triggers (migration 0005) from the Drizzle schema in src/db/schema, so no
 * data table and no column is forgotten: for every table but the bookkeeping ones, an AFTER
 * INSERT, UPDATE and DELETE trigger that appends one audit_log row per changed row, with the
 * whole row before and after in API form (camelCase names, ISO 8601 instants, JSON booleans).
 *
 * The triggers fire only while the one-row `audit_context` table holds a row: the metered D1
 * client (src/db/client.ts) writes it first and deletes it last in every batch that writes, so each
 * entry carries the request's time, key name, operation, request id and the client's correlation
 * id (its x-request-id, migration 0009), and commits atomically with its change. FK cascades run
 * the child tables' triggers too, so cascaded deletes are recorded. An UPDATE that changes no
 * column leaves no entry. The link tables of SUMMARIZED_LINKS (src/db/schema/audited.ts) write
 * nothing while the context's `links_summarized` is set: the bulk write that sets it records
 * their rows itself, one entry per owner and action (migration 0018).
 *
 * After a schema change, regenerate into a new custom migration (the output drops and recreates
 * every trigger, so it is safe to apply on top of older ones):
 *   npx drizzle-kit generate --custom --name audit_triggers
 *   node scripts/audit-triggers.mjs drizzle/<that file>.sql
 * Without an argument the SQL goes to stdout. Table names after the file limit the output to
 * those tables: new ones, ones that gained columns (the triggers name every column), or ones a
 * migration rebuilt (DROP TABLE drops their triggers), e.g.
 *   node scripts/audit-triggers.mjs drizzle/0007_link_ids_audit_triggers.sql trade_condition_customers
 * A change of audit_log or audit_context themselves (a new copied column) needs every trigger
 * regenerated (no table names), like migration 0010. test/feed/audit.test.ts checks that every data
 * table has its three triggers and that they name every column.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Integer columns holding epoch ms, shown as ISO 8601 like the API does (`iso()`). */
const isInstant = (/** @type {string} */ name) => /_at$|^valid_(from|to)$/.test(name);

const camel = (/** @type {string} */ column) =>
  column.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

/**
 * @typedef {{ name: string, key: string, kind: "boolean" | "instant" | "plain" }} Column
 * @typedef {{ name: string, entity: string, columns: Column[], primaryKey: string[], summarized: boolean }} Table
 */

/**
 * A table without a primary key is keyed by its first unique index (pricelist_prices: list,
 * product, tier and `coalesce(valid_from, …)`); an expression stands for the column it reads.
 * @param {any} config getTableConfig's answer
 */
function uniqueKey(config) {
  const index = config.indexes.find((/** @type {any} */ i) => i.config.unique);
  if (!index) return [];
  return index.config.columns.map(
    (/** @type {any} */ column) =>
      column.queryChunks?.find((/** @type {any} */ chunk) => chunk?.name && chunk?.table) ?? column,
  );
}

/** The schema's tables, read by bundling src/db/schema with esbuild (the schema is TypeScript). */
export async function loadTables() {
  const bundle = await build({
    stdin: {
      contents:
        'export * as schema from "./src/db/schema/index.ts";\n' +
        'export { NOT_AUDITED, SUMMARIZED_LINKS, entityName } from "./src/db/schema/audited.ts";\n' +
        'export { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";\n',
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
  });
  const code = bundle.outputFiles[0]?.text ?? "";
  /** @type {{ schema: Record<string, unknown>, getTableConfig: (t: any) => any, SQLiteTable: any, NOT_AUDITED: Set<string>, SUMMARIZED_LINKS: Set<string>, entityName: (table: string) => string }} */
  const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  /** @type {Table[]} */
  const tables = [];
  for (const value of Object.values(mod.schema)) {
    if (!(value instanceof mod.SQLiteTable)) continue;
    const config = mod.getTableConfig(value);
    if (mod.NOT_AUDITED.has(config.name)) continue;
    /** @type {Column[]} */
    const columns = config.columns.map((/** @type {any} */ c) => ({
      name: c.name,
      key: camel(c.name),
      kind: c.columnType === "SQLiteBoolean" ? "boolean" : isInstant(c.name) ? "instant" : "plain",
    }));
    const single = config.columns.filter((/** @type {any} */ c) => c.primary);
    const composite = config.primaryKeys[0]?.columns ?? uniqueKey(config);
    const primaryKey = [...single, ...composite].map((/** @type {any} */ c) => c.name);
    tables.push({
      name: config.name,
      entity: mod.entityName(config.name),
      columns,
      primaryKey,
      summarized: mod.SUMMARIZED_LINKS.has(config.name),
    });
  }
  return tables.sort((a, b) => a.name.localeCompare(b.name));
}

/** A column of OLD or NEW as its API value inside json_object(). */
function value(/** @type {"OLD" | "NEW"} */ row, /** @type {Column} */ column) {
  const ref = `${row}.${column.name}`;
  switch (column.kind) {
    case "boolean":
      return `json(CASE WHEN ${ref} IS NULL THEN 'null' WHEN ${ref} THEN 'true' ELSE 'false' END)`;
    case "instant":
      // x / 1000.0 keeps the milliseconds; SQLite rounds to the nearest ms, as toISOString shows.
      return `strftime('%Y-%m-%dT%H:%M:%fZ', ${ref} / 1000.0, 'unixepoch')`;
    default:
      return ref;
  }
}

const object = (/** @type {"OLD" | "NEW"} */ row, /** @type {Column[]} */ columns) =>
  `json_object(${columns.map((c) => `'${c.key}', ${value(row, c)}`).join(", ")})`;

/** The row's identity: id and code where it has them, else its primary-key columns. */
function identity(/** @type {Table} */ table, /** @type {"OLD" | "NEW"} */ row) {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const names = byName.has("id")
    ? ["id", ...(byName.has("code") ? ["code"] : [])]
    : table.primaryKey;
  const columns = names.map((name) => /** @type {Column} */ (byName.get(name)));
  return {
    id: byName.has("id") ? `${row}.id` : "NULL",
    code: byName.has("code") ? `${row}.code` : "NULL",
    key: object(row, columns),
  };
}

const ACTIONS = /** @type {const} */ (["insert", "update", "delete"]);

function trigger(/** @type {Table} */ table, /** @type {(typeof ACTIONS)[number]} */ action) {
  const name = `audit_${table.name}_${action}`;
  const row = action === "delete" ? "OLD" : "NEW";
  const id = identity(table, row);
  const before = action === "insert" ? "NULL" : object("OLD", table.columns);
  const after = action === "delete" ? "NULL" : object("NEW", table.columns);
  const changed =
    action === "update"
      ? ` AND (${table.columns.map((c) => `OLD.${c.name} IS NOT NEW.${c.name}`).join(" OR ")})`
      : "";
  // A bulk write that records these link rows itself says so in the context (src/db/bulk.ts).
  const summarized = table.summarized
    ? " AND NOT (SELECT links_summarized FROM audit_context)"
    : "";
  return [
    `DROP TRIGGER IF EXISTS \`${name}\`;--> statement-breakpoint`,
    `CREATE TRIGGER \`${name}\` AFTER ${action.toUpperCase()} ON \`${table.name}\``,
    `  WHEN EXISTS (SELECT 1 FROM audit_context)${summarized}${changed} BEGIN`,
    "  INSERT INTO audit_log (at, request_id, correlation_id, key_name, operation, method, path, entity, entity_id, entity_code, entity_key, action, before, after)",
    `  SELECT c.at, c.request_id, c.correlation_id, c.key_name, c.operation, c.method, c.path, '${table.entity}', ${id.id}, ${id.code},`,
    `    ${id.key},`,
    `    '${action.toUpperCase()}',`,
    `    ${before},`,
    `    ${after}`,
    "  FROM audit_context c;",
    "END;--> statement-breakpoint",
  ].join("\n");
}

/**
 * @param {Table[]} tables
 * @param {boolean} [only] the triggers of these tables alone, for tables a migration rebuilt
 */
export function auditTriggersSql(tables, only = false) {
  if (only) {
    const header = [
      "-- Audit triggers of tables that earlier migrations created, altered or rebuilt, generated by",
      `-- scripts/audit-triggers.mjs from src/db/schema: do not edit by hand. Tables: ${tables.map((t) => t.name).join(", ")}.`,
    ];
    const body = tables.flatMap((table) => ACTIONS.map((action) => trigger(table, action)));
    return `${[...header, ...body].join("\n").replace(/--> statement-breakpoint$/, "")}\n`;
  }
  const header = [
    "-- Audit triggers, generated by scripts/audit-triggers.mjs from src/db/schema: do not edit by hand.",
    "-- One AFTER INSERT/UPDATE/DELETE trigger per data table, active only while audit_context holds",
    "-- the writing request (see src/db/client.ts). Writes without it (seeds, bulk loads) leave no entries.",
    "DROP TRIGGER IF EXISTS `audit_log_append_only`;--> statement-breakpoint",
    "CREATE TRIGGER `audit_log_append_only` BEFORE UPDATE ON `audit_log` BEGIN",
    "  SELECT RAISE(ABORT, 'audit_log is append-only');",
    "END;--> statement-breakpoint",
  ];
  const body = tables.flatMap((table) => ACTIONS.map((action) => trigger(table, action)));
  // The last statement carries no breakpoint marker, like drizzle-kit's own files.
  return `${[...header, ...body].join("\n").replace(/--> statement-breakpoint$/, "")}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [out, ...names] = process.argv.slice(2);
  const all = await loadTables();
  const unknown = names.filter((name) => !all.some((t) => t.name === name));
  if (unknown.length) throw new Error(`not audited tables: ${unknown.join(", ")}`);
  const tables = names.length ? all.filter((t) => names.includes(t.name)) : all;
  const text = auditTriggersSql(tables, names.length > 0);
  if (out) {
    writeFileSync(out, text);
    console.log(`${out}: audit triggers for ${tables.length} tables`);
  } else {
    process.stdout.write(text);
  }
}
