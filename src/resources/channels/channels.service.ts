import { deleteUnlessNamed } from "../../db/blockers";
import { unassignByCodes } from "../../db/links";
import { FOREIGN_KEY } from "../../db/outcomes";
import type { Db } from "../../db/client";
import { notFound } from "../../core/errors";
import {
  assertAssignable,
  linkWhile,
  missingPricelist,
  type AssignmentPlace,
} from "../pricelists/pricelists.service";
import {
  assignChannelPricelist,
  assignToChannel,
  channelLinks,
  deleteChannel,
  findChannelAndPricelist,
  readChannelBlockers,
  findChannelId,
  setPrimaryPricelist as writePrimary,
} from "./channels.repo";

export const missingChannel = (code: string) => notFound(`channel ${code} not found`);

export const removeChannel = (db: Db, code: string) =>
  deleteUnlessNamed({
    label: `channel ${code}`,
    remove: () => deleteChannel(db, code),
    read: () => readChannelBlockers(db, code),
    missing: () => missingChannel(code),
  });

async function requireChannelId(db: Db, code: string) {
  const id = await findChannelId(db, code);
  if (id === undefined) throw missingChannel(code);
  return id;
}

type Field = keyof typeof channelLinks.links;

/** Bulk assignment of customer groups or customers by code; the channel must exist. */
export async function assignLinked(db: Db, code: string, field: Field, codes: string[]) {
  const channelId = await requireChannelId(db, code);
  const result = await assignToChannel(db, channelLinks.links[field], channelId, codes);
  // The check ran a round trip earlier: a channel deleted meanwhile fails the foreign key.
  if (result === FOREIGN_KEY) throw missingChannel(code);
  return result;
}

export async function unassignLinked(db: Db, code: string, field: Field, codes: string[]) {
  const channelId = await requireChannelId(db, code);
  return unassignByCodes(db, channelLinks.links[field], channelId, codes);
}

/** The channel's id and an assignable pricelist, or the 404/409 that stops the write. */
async function requireAssignment(
  db: Db,
  code: string,
  pricelistId: number,
  place: AssignmentPlace,
) {
  const { channelId, pricelist } = await findChannelAndPricelist(db, code, pricelistId);
  if (channelId === undefined) throw missingChannel(code);
  if (!pricelist) throw missingPricelist(pricelistId);
  assertAssignable(pricelist, place, `channel ${code}`);
  return { channelId, pricelist };
}

export async function assignPricelist(db: Db, code: string, pricelistId: number) {
  const { channelId } = await requireAssignment(db, code, pricelistId, "CHANNEL");
  const linked = await linkWhile(db, pricelistId, "CHANNEL", `channel ${code}`, (guard) =>
    assignChannelPricelist(db, channelId, pricelistId, guard),
  );
  if (linked === FOREIGN_KEY) throw missingChannel(code);
}

/** The channel as it is now, and its new primary pricelist. */
export async function setPrimaryPricelist(db: Db, code: string, pricelistId: number) {
  const { channelId, pricelist } = await requireAssignment(
    db,
    code,
    pricelistId,
    "CHANNEL_PRIMARY",
  );
  const channel = await linkWhile(db, pricelistId, "CHANNEL_PRIMARY", `channel ${code}`, (guard) =>
    writePrimary(db, channelId, pricelistId, guard),
  );
  if (channel === FOREIGN_KEY || !channel) throw missingChannel(code);
  return { channel, pricelist };
}
