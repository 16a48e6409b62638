import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

/** Instants are stored as epoch milliseconds (UTC): they compare as numbers whatever the input format. */
export const instant = (name: string) => integer(name);

export const timestamps = {
  createdAt: integer("created_at")
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  updatedAt: integer("updated_at")
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
};

export const validity = {
  validFrom: instant("valid_from"),
  validTo: instant("valid_to"),
};
