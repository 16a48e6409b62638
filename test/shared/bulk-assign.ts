import { describe, expect, it } from "vitest";
import { api, expectProblem, issuePaths, KEYS, roundTrips, type ApiResponse } from "./helpers";
import { missingCodes } from "./reads";

/** A round-trip budget: the exact count where a test pins it, else an upper bound. */
export type Trips = { exactly: number } | { atMost: number };

type CodesField = "customerCodes" | "customerGroupCodes";

/**
 * One "link records by code" endpoint pair: POST <assign path> and POST <assign path>/unassign,
 * with a body `{ [field]: codes }` of 1 to 1000 codes. Every such pair shares the rules below.
 */
export interface BulkAssignEndpoint<Owner extends string | number> {
  /** Names the describe block, e.g. "channel customers". */
  label: string;
  /** The assign path of an owner; unassign is that path plus /unassign. */
  path: (owner: Owner | string) => string;
  field: CodesField;
  /** A fresh owner (a code or an id) the endpoint accepts codes for. */
  createOwner: () => Promise<Owner>;
  /** A fresh record that can be linked; returns its code. */
  createTarget: () => Promise<string>;
  /** Which of `codes` are linked to the owner, sorted: each endpoint reads back its own way. */
  linked: (owner: Owner, codes: string[]) => Promise<string[]>;
  /** An owner that does not exist, and the 404 detail naming it. */
  missingOwner: { key: Owner; detail: string };
  /** Malformed owner keys and the issue path they produce (path.code or path.id). */
  badOwnerKeys: string[];
  badOwnerIssue: "path.code" | "path.id";
  roundTrips: { assign: Trips; unassign: Trips; bulkAssign: Trips; bulkUnassign: Trips };
}

function expectTrips(res: ApiResponse, trips: Trips) {
  if ("exactly" in trips) expect(roundTrips(res)).toBe(trips.exactly);
  else expect(roundTrips(res)).toBeLessThanOrEqual(trips.atMost);
}

/** The other codes field: sent to the wrong route it is an unknown key. */
const otherField = (field: CodesField): CodesField =>
  field === "customerCodes" ? "customerGroupCodes" : "customerCodes";

/** Registers the shared cases of one bulk assign/unassign endpoint pair. */
export function describeBulkAssign<Owner extends string | number>(spec: BulkAssignEndpoint<Owner>) {
  const body = (codes: string[]) => ({ [spec.field]: codes });
  const assign = (owner: Owner | string, codes: string[]) =>
    api("POST", spec.path(owner), { body: body(codes) });
  const unassign = (owner: Owner | string, codes: string[]) =>
    api("POST", `${spec.path(owner)}/unassign`, { body: body(codes) });

  const ops: Ops<Owner> = { body, assign, unassign };
  describe(`${spec.label}: assign and unassign by codes`, () => {
    describeAssign(spec, ops);
    describeUnassign(spec, ops);
    describeRefusals(spec, ops);
  });
}

type Send<Owner> = (owner: Owner | string, codes: string[]) => Promise<ApiResponse>;
interface Ops<Owner> {
  body: (codes: string[]) => Record<string, string[]>;
  assign: Send<Owner>;
  unassign: Send<Owner>;
}

function describeAssign<Owner extends string | number>(
  spec: BulkAssignEndpoint<Owner>,
  { assign, unassign }: Ops<Owner>,
) {
  it("assigns, splits skipped/notFound, counts duplicates once, and a repeat changes nothing", async () => {
    const owner = await spec.createOwner();
    const [a, b] = [await spec.createTarget(), await spec.createTarget()];
    const codes = [b, "NOPE-1", b, a];
    const first = await assign(owner, codes);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ assigned: [b, a], skipped: ["NOPE-1"], notFound: ["NOPE-1"] });
    expectTrips(first, spec.roundTrips.assign);
    expect(await spec.linked(owner, [a, b])).toEqual([a, b].sort());

    const again = await assign(owner, codes);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ assigned: [], skipped: [b, "NOPE-1", a], notFound: ["NOPE-1"] });
    expect(await spec.linked(owner, [a, b])).toEqual([a, b].sort());
  });

  it("is idempotent: assigns only what is new and skips what is there", async () => {
    const owner = await spec.createOwner();
    const [a, b] = [await spec.createTarget(), await spec.createTarget()];
    expect((await assign(owner, [a])).body).toEqual({ assigned: [a], skipped: [], notFound: [] });
    const more = await assign(owner, [a, b]);
    expect(more.status).toBe(201);
    expect(more.body).toEqual({ assigned: [b], skipped: [a], notFound: [] });
    const repeat = await assign(owner, [a, b]);
    expect(repeat.body).toEqual({ assigned: [], skipped: [a, b], notFound: [] });
    expect(await spec.linked(owner, [a, b])).toEqual([a, b].sort());
  });

  it("handles 1000 codes each way within the round-trip budget", async () => {
    const owner = await spec.createOwner();
    const [a, b] = [await spec.createTarget(), await spec.createTarget()];
    const missing = missingCodes(998, "NO-BULK");
    const added = await assign(owner, [a, ...missing, b]);
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ assigned: [a, b], skipped: missing, notFound: missing });
    expectTrips(added, spec.roundTrips.bulkAssign);
    expect(await spec.linked(owner, [a, b])).toEqual([a, b].sort());

    const gone = missingCodes(999, "NO-BULK");
    const removed = await unassign(owner, [...gone, a]);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ unassigned: [a], notFound: gone });
    expectTrips(removed, spec.roundTrips.bulkUnassign);
    expect(await spec.linked(owner, [a, b])).toEqual([b]);
  });
}

function describeUnassign<Owner extends string | number>(
  spec: BulkAssignEndpoint<Owner>,
  { assign, unassign }: Ops<Owner>,
) {
  it("unassigns existing codes (also unlinked ones), reports unknown ones, keeps the rest, repeats harmlessly", async () => {
    const owner = await spec.createOwner();
    const [a, b, c] = [
      await spec.createTarget(),
      await spec.createTarget(),
      await spec.createTarget(),
    ];
    expect((await assign(owner, [a, b])).status).toBe(201);
    const res = await unassign(owner, [a, c, "NOPE-2", a]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ unassigned: [a, c], notFound: ["NOPE-2"] });
    expectTrips(res, spec.roundTrips.unassign);
    expect(await spec.linked(owner, [a, b, c])).toEqual([b]);

    const again = await unassign(owner, [a, c, "NOPE-2"]);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ unassigned: [a, c], notFound: ["NOPE-2"] });
    expect(await spec.linked(owner, [a, b, c])).toEqual([b]);
  });

  it("answers 404 naming an unknown owner, both ways", async () => {
    const code = await spec.createTarget();
    for (const send of [assign, unassign]) {
      const res = await send(spec.missingOwner.key, [code]);
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(spec.missingOwner.detail);
    }
  });
}

function describeRefusals<Owner extends string | number>(
  spec: BulkAssignEndpoint<Owner>,
  { body }: Ops<Owner>,
) {
  const field = `body.${spec.field}`;

  it("validates the body and the path both ways (400 naming the field), writing nothing", async () => {
    const owner = await spec.createOwner();
    const real = await spec.createTarget();
    for (const path of [spec.path(owner), `${spec.path(owner)}/unassign`]) {
      const send = (b: unknown) => api("POST", path, { body: b });
      expect(issuePaths(await send(body([])))).toEqual([field]);
      expect(issuePaths(await send(body(missingCodes(1001))))).toEqual([field]);
      expect(issuePaths(await send(body(["bad code"])))).toEqual([`${field}.0`]);
      expect(issuePaths(await send(body([real, "bad code"])))).toEqual([`${field}.1`]);
      expect(issuePaths(await send({}))).toEqual([field]);
      expect(issuePaths(await send({ ...body([real]), extra: 1 }))).toEqual(["body.extra"]);
      expect(issuePaths(await send({ codes: [real] })).sort()).toEqual(
        ["body.codes", field].sort(),
      );
      const wrong = `body.${otherField(spec.field)}`;
      expect(issuePaths(await send({ [otherField(spec.field)]: [real] })).sort()).toEqual(
        [field, wrong].sort(),
      );
      const json = { "content-type": "application/json" };
      expectProblem(await api("POST", path, { raw: "{", headers: json }), 400, "MALFORMED_JSON");
      const text = { "content-type": "text/plain" };
      expectProblem(
        await api("POST", path, { raw: "x", headers: text }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      );
    }
    for (const key of spec.badOwnerKeys) {
      for (const path of [spec.path(key), `${spec.path(key)}/unassign`]) {
        expect(issuePaths(await api("POST", path, { body: body([real]) }))).toEqual([
          spec.badOwnerIssue,
        ]);
      }
    }
    expect(await spec.linked(owner, [real])).toEqual([]);
  });

  it("needs a key (401) and the admin role (403) both ways, writing nothing", async () => {
    const owner = await spec.createOwner();
    const real = await spec.createTarget();
    for (const path of [spec.path(owner), `${spec.path(owner)}/unassign`]) {
      const send = (key: string | null) => api("POST", path, { key, body: body([real]) });
      expectProblem(await send(null), 401, "UNAUTHORIZED");
      expectProblem(await send(KEYS.read), 403, "FORBIDDEN");
    }
    expect(await spec.linked(owner, [real])).toEqual([]);
  });
}
