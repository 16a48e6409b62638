/** Renders plain values as SQLite literals; the seed is one SQL file run by `wrangler d1 execute`. */

/** @typedef {string | number | boolean | null} SqlValue */

/**
 * @param {SqlValue} value
 * @returns {string}
 */
export function literal(value) {
  if (value === null) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
    return String(value);
  }
  // Statements are split on ";" by wrangler; keep data free of it to stay on the safe side.
  if (value.includes(";")) throw new Error(`no ";" in demo data: ${value}`);
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Multi-row INSERTs in chunks, well below D1's statement size limit (100 kB).
 * @param {string} table
 * @param {readonly string[]} columns
 * @param {readonly (readonly SqlValue[])[]} rows
 * @param {number} [chunkSize]
 * @returns {string[]}
 */
export function inserts(table, columns, rows, chunkSize = 200) {
  /** @type {string[]} */
  const statements = [];
  for (let i = 0; i < rows.length; i += chunkSize) {
    const values = rows
      .slice(i, i + chunkSize)
      .map((row) => {
        if (row.length !== columns.length)
          throw new Error(`${table}: row has ${row.length} values`);
        return `(${row.map(literal).join(", ")})`;
      })
      .join(",\n  ");
    statements.push(`INSERT INTO ${table} (${columns.join(", ")}) VALUES\n  ${values};`);
  }
  return statements;
}
