/*
 * D1 refuses any string of more than 2,000,000 bytes, a bound parameter as much as a value a
 * statement builds (SQLITE_TOOBIG, docs/toolchain.md). Bulk writes bind their rows as one JSON
 * parameter (json_each), and the lists that grow with a body or with stored data (link rows, a
 * bulk write's facts, audit entries) are cut here into chunks of at most MAX_JSON_BYTES: one
 * statement per chunk, all of them in the one batch, which D1 runs as one transaction.
 */

/** The most one JSON parameter or built text carries: half of D1's limit on a string. */
export const MAX_JSON_BYTES = 1_000_000;

/** The UTF-8 length of `text`, which is what SQLite measures (JS counts UTF-16 units). */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // 2 bytes up to U+07FF, 3 up to U+FFFF; a surrogate pair (2 units) is 4 bytes.
    if (unit >= 0x80) bytes += unit >= 0x800 && (unit < 0xd800 || unit > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/**
 * `items` in order, cut into runs whose sizes add up to at most `max`; an item larger than `max`
 * alone makes a run of its own (no row of a bulk body comes near: their fields are bounded).
 */
export function chunkBySize<T>(
  items: readonly T[],
  sizeOf: (item: T) => number,
  max = MAX_JSON_BYTES,
): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let size = 0;
  for (const item of items) {
    const n = sizeOf(item);
    if (chunk.length && size + n > max) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(item);
    size += n;
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** `rows` as JSON arrays of at most `max` bytes each; none for no rows. */
export function jsonChunks(rows: readonly unknown[], max = MAX_JSON_BYTES): string[] {
  const texts = rows.map((row) => JSON.stringify(row));
  // +1 for the comma (or a bracket) each row brings.
  return chunkBySize(texts, (text) => utf8Bytes(text) + 1, max - 1).map(
    (chunk) => `[${chunk.join(",")}]`,
  );
}
