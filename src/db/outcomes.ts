import { isForeignKeyViolation } from "./client";

/**
 * A write that a foreign key refused: a row it names was deleted after the checks that read it,
 * or (a delete) other rows still name the row. Repositories return it as a fact; the service or
 * handler that knows what was meant turns it into the answer (404 or 409).
 */
export const FOREIGN_KEY = Symbol("foreign key");

export async function unlessForeignKey<T>(
  write: () => Promise<T>,
): Promise<T | typeof FOREIGN_KEY> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) return FOREIGN_KEY;
    throw err;
  }
}
