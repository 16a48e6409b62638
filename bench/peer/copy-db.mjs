/**
 * Makes the peer's database: a consistent single-file copy of the local D1 database that
 * wrangler/Miniflare persists under `<persist-dir>/v3/d1/miniflare-D1DatabaseObject/<hash>.sqlite`.
 *
 *   node bench/peer/copy-db.mjs --persist-to <persist-dir> --out <file.sqlite>
 *   import { copyD1Database } from "./peer/copy-db.mjs"; await copyD1Database(dir, out);
 *
 * Why not `cp`: Miniflare keeps the database in WAL mode and most of the data sits in the
 * `-wal` file until a checkpoint, so copying the `.sqlite` file alone gives an almost empty
 * database. SQLite's online backup (better-sqlite3's `db.backup`) reads the source read-only,
 * WAL included, and writes a self-contained copy. Run it while nothing writes to the source.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

// better-sqlite3 from the peer's own node_modules, loaded by name (typed `any` here).
const load = createRequire(import.meta.url);

/** The D1 database file of a persist folder (the one that is not Miniflare's metadata.sqlite). */
/** @param {string} persistDir */
export function findD1File(persistDir) {
  const dir = join(resolve(persistDir), "v3", "d1", "miniflare-D1DatabaseObject");
  const files = existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
    : [];
  const [file, ...more] = files;
  if (file === undefined || more.length)
    throw new Error(
      `expected exactly one D1 database file in ${dir}, found ${files.length ? files.join(", ") : "none"}`,
    );
  return join(dir, file);
}

/** Copies the D1 database of `persistDir` to `outFile` (replaced if present); returns the product count. */
/** @param {string} persistDir @param {string} outFile @returns {Promise<number>} */
export async function copyD1Database(persistDir, outFile) {
  /** @type {any} */
  const Database = load("better-sqlite3");
  const out = resolve(outFile);
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(out + suffix, { force: true });
  const source = new Database(findD1File(persistDir), { readonly: true, fileMustExist: true });
  try {
    await source.backup(out);
  } finally {
    source.close();
  }
  const copy = new Database(out, { fileMustExist: true });
  try {
    // WAL, as the source (and a production SQLite setup) uses; the -wal file is folded back into
    // the main file when the last connection closes, so the copy is one file while unused.
    copy.pragma("journal_mode = WAL");
    return copy.prepare("select count(*) as n from products").get().n;
  } finally {
    copy.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { "persist-to": { type: "string" }, out: { type: "string" } },
  });
  if (!values["persist-to"] || !values.out) {
    console.error(
      "usage: node bench/peer/copy-db.mjs --persist-to <persist-dir> --out <file.sqlite>",
    );
    process.exit(2);
  }
  const n = await copyD1Database(values["persist-to"], values.out);
  console.log(`copied ${n} products to ${resolve(values.out)}`);
}
