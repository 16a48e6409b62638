/**
 * The engine of `npm run import` / `npm run export` (docs/csv.md), one for every kind: a kind
 * (csv-kinds.mjs) only says how its rows look and where they go. Pure (no Node APIs): the
 * command-line tools (scripts/import.mjs, scripts/export.mjs) give it the file as text pieces and
 * keep its checkpoints; the Worker tests give it the Worker's fetch.
 *
 * Import: records are read as they arrive (never the whole file), checked, and sent in bodies of
 * up to 1000 rows to the kind's bulk upsert, `concurrency` bodies at a time. A body is atomic: its
 * 400 names the bad rows by index (`body.<bodyKey>.17.code`), which become rejected lines, and the
 * rest is sent again. A row refused on the kind's `deferOn` field (a parent group that comes later
 * in the file) is held, and sent again once a body holding that code is written; what is still
 * held at the end is retried in rounds until a round writes nothing, then rejected. The checkpoint
 * is the last line up to which every row is written or rejected.
 */
import { csvRow, createCsvParser } from "./csv.mjs";
import { describeFailure } from "./csv-http.mjs";
import { readHeader, readRow } from "./csv-kinds.mjs";

/** The bulk endpoints take 1-1000 rows; bodies stay well under the service's 1 MiB cap. */
export const MAX_ROWS = 1000;
export const MAX_BODY_BYTES = 512 * 1024;
export const DEFAULT_CONCURRENCY = 4;
/** The API's page cap (docs/list-queries.md §3). */
const PAGE_SIZE = 100;

/**
 * @typedef {import("./csv-kinds.mjs").Kind} Kind
 * @typedef {import("./csv-kinds.mjs").Context} Context
 * @typedef {import("./csv-kinds.mjs").Row} Row
 * @typedef {import("./csv-http.mjs").Api} Api
 * @typedef {{ line: number, reason: string }} Rejection
 * @typedef {{ rows: number, created: number, updated: number, unchanged: number }} Totals
 *   `rows` written; the rest as the bulk endpoints answer (codes, or counts for exchange rates;
 *   prices answer only `upserted`)
 * @typedef {{ committedLine: number, rejected: Rejection[], totals: Totals }} Checkpoint
 *   every line up to `committedLine` is written or among `rejected`
 * @typedef {{ row: Row, line: number, reason: string }} Entry a row of the file with its line
 */

/** @returns {Totals} */
const zero = () => ({ rows: 0, created: 0, updated: 0, unchanged: 0 });

/** @param {Totals} into @param {Totals} more */
const addTotals = (into, more) => {
  into.rows += more.rows;
  into.created += more.created;
  into.updated += more.updated;
  into.unchanged += more.unchanged;
};

/**
 * The issues of a 400 by row of the body: `body.products.17.code` is row 17, field `code`.
 * Issues that name no row (`body.products`, a summary) are returned apart.
 * @param {{ path?: unknown, message?: unknown }[]} errors the `errors` of the problem body
 * @param {string} bodyKey
 * @returns {{ byRow: Map<number, { field: string, message: string }[]>, unmapped: string[] }}
 */
export function rowIssues(errors, bodyKey) {
  /** @type {Map<number, { field: string, message: string }[]>} */
  const byRow = new Map();
  /** @type {string[]} */
  const unmapped = [];
  const pattern = new RegExp(`^body\\.${bodyKey}\\.(\\d+)(?:\\.(.+))?$`);
  for (const issue of errors) {
    const path = String(issue.path ?? "");
    const message = String(issue.message ?? "");
    const m = pattern.exec(path);
    if (!m) {
      unmapped.push(path ? `${path}: ${message}` : message);
      continue;
    }
    const row = Number(m[1]);
    byRow.set(row, [...(byRow.get(row) ?? []), { field: m[2] ?? "", message }]);
  }
  return { byRow, unmapped };
}

/** A count of a bulk answer: its codes, or the number itself. @param {unknown} value */
const counted = (value) => (Array.isArray(value) ? value.length : Number(value ?? 0));

/** @param {any} body the answer of a bulk upsert @param {number} sent */
const totalsOf = (body, sent) =>
  body?.created !== undefined
    ? {
        rows: sent,
        created: counted(body.created),
        updated: counted(body.updated),
        unchanged: counted(body.unchanged),
      }
    : { ...zero(), rows: Number(body?.upserted ?? sent) };

/** "line 7" or "lines 2-1001" */
const linesText = (/** @type {number[]} */ lines) =>
  lines.length === 1 ? `line ${lines[0]}` : `lines ${lines[0]}-${lines.at(-1)}`;

/**
 * Sends rows to the kind's upsert until what is left is written: on a 400, the rows it names are
 * taken out (rejected, or held when refused only on `deferOn`) and the rest is sent again.
 * @param {Kind} kind
 * @param {Context} ctx
 * @param {Api} api
 */
function createSender(kind, ctx, api) {
  const path = kind.importPath(ctx);
  /** @param {Entry[]} entries */
  return async function send(entries) {
    const out = {
      totals: zero(),
      /** @type {Entry[]} */ written: [],
      /** @type {Rejection[]} */ rejected: [],
      /** @type {Entry[]} */ held: [],
    };
    let body = entries;
    while (body.length > 0) {
      const res = await api.put(path, { [kind.bodyKey]: body.map((e) => e.row) });
      if (res.status === 200) {
        out.totals = totalsOf(res.body, body.length);
        out.written = body;
        break;
      }
      const where = linesText(body.map((e) => e.line));
      if (res.status !== 400 || !Array.isArray(res.body?.errors))
        throw new Error(`${where}: ${describeFailure(res)}`);
      const { byRow, unmapped } = rowIssues(res.body.errors, kind.bodyKey);
      if (![...byRow.keys()].some((i) => i < body.length))
        throw new Error(`${where}: ${describeFailure(res)} ${unmapped.join("; ")}`.trim());
      body = body.filter((entry, i) => {
        const issues = byRow.get(i);
        if (!issues) return true;
        const reason = issues.map((x) => (x.field ? `${x.field}: ${x.message}` : x.message));
        const held = kind.deferOn !== undefined && issues.every((x) => x.field === kind.deferOn);
        if (held) out.held.push({ ...entry, reason: reason.join("; ") });
        else out.rejected.push({ line: entry.line, reason: reason.join("; ") });
        return false;
      });
    }
    return out;
  };
}

/** At most `max` calls at once; `acquire` waits for a free slot. */
function createSlots(/** @type {number} */ max) {
  let active = 0;
  /** @type {(() => void)[]} */
  const waiting = [];
  return {
    async acquire() {
      while (active >= max) await new Promise((resolve) => waiting.push(() => resolve(undefined)));
      active++;
    },
    release() {
      active--;
      waiting.shift()?.();
    },
  };
}

/**
 * Rows held until the code they name on `deferOn` is written. `lines` counts them until they are
 * written or rejected (also while a retry is in flight), so the checkpoint stays before them.
 */
function createHeld() {
  /** @type {Map<string, Entry[]>} */
  const byCode = new Map();
  /** @type {Set<number>} */
  const lines = new Set();
  return {
    lines,
    /** @param {Entry} entry @param {string} code */
    add(entry, code) {
      const waiting = byCode.get(code);
      if (waiting) waiting.push(entry);
      else byCode.set(code, [entry]);
      lines.add(entry.line);
    },
    /** The rows waiting for these codes (they stay in `lines`). @param {string[]} codes */
    take(codes) {
      return codes.flatMap((code) => {
        const entries = byCode.get(code) ?? [];
        byCode.delete(code);
        return entries;
      });
    },
    takeAll() {
      const all = [...byCode.values()].flat().sort((a, b) => a.line - b.line);
      byCode.clear();
      return all;
    },
    get size() {
      return byCode.size;
    },
    minLine() {
      let min = Infinity;
      for (const line of lines) if (line < min) min = line;
      return min;
    },
  };
}

/** Cuts entries into bodies of at most `size` rows. @param {Entry[]} entries @param {number} size */
const bodiesOf = (entries, size) =>
  Array.from({ length: Math.ceil(entries.length / size) }, (_, i) =>
    entries.slice(i * size, (i + 1) * size),
  );

/**
 * @typedef {{
 *   kind: Kind, ctx: Context, api: Api, source: AsyncIterable<string>,
 *   resume?: { committedLine: number, rejected?: Rejection[], totals?: Totals },
 *   concurrency?: number, maxRows?: number, dryRun?: boolean,
 *   shouldStop?: () => boolean,
 *   onCommit?: (checkpoint: Checkpoint) => void,
 *   onProgress?: (p: { read: number, written: number, rejected: number }) => void,
 * }} ImportOptions
 *   `source`: the file as text pieces of any size; `resume`: the checkpoint of an earlier run,
 *   whose lines are read again only to remember their keys (`--from-line` is a checkpoint without
 *   rejections); `shouldStop`: asked after each record, true ends the import after the bodies in
 *   flight; `maxRows`: rows per body (default MAX_ROWS)
 * @typedef {{ totals: Totals, read: number, rejected: Rejection[], committedLine: number,
 *   interrupted: boolean }} ImportResult `read`: rows read and checked in this run
 */

/**
 * Reads the records of a file: the header first, then each record as a row to send or a line to
 * reject. Records up to `from` were done by an earlier run: only their keys are remembered.
 * @param {Kind} kind
 * @param {Context} ctx
 * @param {number} from
 */
function createRecordReader(kind, ctx, from) {
  /** @type {{ index: Map<string, number>, width: number } | undefined} */
  let header;
  /** @type {Map<string, number>} the first line of each key */
  const seen = new Map();
  return {
    get started() {
      return header !== undefined;
    },
    /**
     * @param {import("./csv.mjs").CsvRecord} record
     * @returns {{ row: Row } | { reason: string } | undefined} undefined: the header, or done before
     */
    read(record) {
      if (!header) {
        if (record.error) throw new Error(`line ${record.line}: ${record.error}`);
        const h = readHeader(record.fields, kind);
        if (!h.ok) throw new Error(`line ${record.line}: ${h.error}`);
        header = h;
        return undefined;
      }
      const replay = record.line <= from;
      if (record.error) return replay ? undefined : { reason: record.error };
      const row = readRow(record, header, kind, ctx);
      if (!row.ok) return replay ? undefined : { reason: row.error };
      const key = kind.key(row.row);
      const earlier = seen.get(key);
      if (earlier === undefined) seen.set(key, record.line);
      if (replay) return undefined;
      if (earlier !== undefined) return { reason: kind.repeatMessage(row.row, earlier) };
      return { row: row.row };
    },
  };
}

/**
 * The checkpoint: the bodies cut from the file, in file order, and the line up to which every
 * one of them is settled — but never past a held row.
 * @param {{ from: number, held: ReturnType<typeof createHeld>, onCommit: (line: number) => void }} options
 */
function createCheckpoint({ from, held, onCommit }) {
  /** @type {{ upTo: number, settled: boolean }[]} */
  const queue = [];
  let settledUpTo = from;
  let line = from;
  return {
    get line() {
      return line;
    },
    /** The last line any body covers. */
    get cut() {
      return queue.at(-1)?.upTo ?? settledUpTo;
    },
    /** A body covering the lines up to `upTo`: rows in it, or rejected before. */
    open(/** @type {number} */ upTo) {
      const body = { upTo, settled: false };
      queue.push(body);
      return body;
    },
    commit() {
      while (queue[0]?.settled) settledUpTo = /** @type {{ upTo: number }} */ (queue.shift()).upTo;
      const next = Math.min(settledUpTo, held.minLine() - 1);
      if (next <= line) return;
      line = next;
      onCommit(line);
    },
  };
}

/**
 * The bodies in flight: at most `concurrency` requests at once, each booked when it settles; a
 * written body lets go of the held rows that wait for its codes. The first failure is kept and
 * ends the import.
 * @param {{ kind: Kind, send: ReturnType<typeof createSender>, concurrency: number,
 *   maxRows: number, held: ReturnType<typeof createHeld>,
 *   checkpoint: ReturnType<typeof createCheckpoint>, totals: Totals, rejected: Rejection[],
 *   progress: () => void }} run
 */
function createBodies(run) {
  const { kind, held, checkpoint } = run;
  const slots = createSlots(run.concurrency);
  /** @type {Set<Promise<void>>} */
  const tasks = new Set();
  const state = { failure: /** @type {unknown} */ (undefined), releasing: Boolean(kind.deferOn) };

  const track = (/** @type {() => Promise<void>} */ task) => {
    const p = task()
      .catch((error) => {
        state.failure ??= error;
      })
      .finally(() => tasks.delete(p));
    tasks.add(p);
  };

  /** Sends entries (holding a slot) and books the outcome. @param {Entry[]} entries */
  const sendEntries = async (entries) => {
    try {
      const out = await run.send(entries);
      addTotals(run.totals, out.totals);
      run.rejected.push(...out.rejected);
      for (const entry of out.held) held.add(entry, String(entry.row[String(kind.deferOn)]));
      const kept = new Set(out.held.map((e) => e.line));
      for (const entry of entries) if (!kept.has(entry.line)) held.lines.delete(entry.line);
      if (state.releasing && out.written.length) release(out.written.map((e) => kind.key(e.row)));
      return out;
    } finally {
      slots.release();
    }
  };
  /** @param {Entry[]} entries */
  const sendInSlot = async (entries) => {
    await slots.acquire();
    return sendEntries(entries);
  };

  /** Sends again the held rows that wait for these codes, now written. */
  const release = (/** @type {string[]} */ codes) => {
    for (const entries of bodiesOf(held.take(codes), run.maxRows))
      track(async () => {
        await sendInSlot(entries);
        checkpoint.commit();
        run.progress();
      });
  };

  return {
    state,
    sendInSlot,
    /**
     * Sends a body of the file in the background once a slot is free (reading waits till then).
     * @param {Entry[]} entries
     * @param {{ settled: boolean }} body its place in the checkpoint
     */
    async dispatch(entries, body) {
      await slots.acquire();
      track(async () => {
        await sendEntries(entries);
        body.settled = true; // a failed body stays unsettled: the checkpoint never passes it
        checkpoint.commit();
        run.progress();
      });
    },
    async drain() {
      while (tasks.size > 0) await Promise.all(tasks);
    },
  };
}

/**
 * @param {ImportOptions} options
 * @returns {Promise<ImportResult>}
 */
export async function importCsv(options) {
  const { kind, ctx, dryRun = false, shouldStop = () => false, maxRows = MAX_ROWS } = options;
  const { onCommit = () => {}, onProgress = () => {} } = options;
  const from = options.resume?.committedLine ?? 0;
  const totals = { ...zero(), ...options.resume?.totals };
  /** Every rejection; those after the checkpoint are found again by a resumed run. */
  const rejected = [...(options.resume?.rejected ?? [])];
  const held = createHeld();
  const checkpoint = createCheckpoint({
    from,
    held,
    onCommit(line) {
      const done = rejected.filter((r) => r.line <= line);
      if (!dryRun) onCommit({ committedLine: line, rejected: done, totals: { ...totals } });
    },
  });
  let read = 0;
  const progress = () => onProgress({ read, written: totals.rows, rejected: rejected.length });
  const bodies = createBodies({
    kind,
    send: createSender(kind, ctx, options.api),
    concurrency: Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY),
    maxRows,
    held,
    checkpoint,
    totals,
    rejected,
    progress,
  });

  /** @type {Entry[]} */
  let entries = [];
  let bytes = 0;
  /** Cuts a body covering every line up to `upTo` (rejected lines too) and sends it. */
  const cut = async (/** @type {number} */ upTo) => {
    const body = checkpoint.open(upTo);
    const rows = entries;
    [entries, bytes] = [[], 0];
    if (dryRun || rows.length === 0) body.settled = true;
    else await bodies.dispatch(rows, body);
    checkpoint.commit();
  };

  const reader = createRecordReader(kind, ctx, from);
  let lastLine = from;
  /** @param {import("./csv.mjs").CsvRecord} record */
  const take = async (record) => {
    const got = reader.read(record);
    if (got === undefined) return;
    lastLine = record.line;
    if ("reason" in got) return void rejected.push({ line: record.line, reason: got.reason });
    read++;
    const size = JSON.stringify(got.row).length + 1;
    if (entries.length === maxRows || bytes + size > MAX_BODY_BYTES) await cut(record.line - 1);
    entries.push({ row: got.row, line: record.line, reason: "" });
    bytes += size;
  };

  const stop = () => bodies.state.failure !== undefined || shouldStop();
  const interrupted = await readAll(options.source, take, stop, progress);
  if (bodies.state.failure === undefined) {
    if (!reader.started)
      throw new Error(`the file is empty: the header ${kind.columns.join(",")} is required`);
    // The last body, or only rejected lines after the last one: they move the checkpoint too.
    if (!interrupted && (entries.length > 0 || lastLine > checkpoint.cut)) await cut(lastLine);
  }
  await bodies.drain();
  if (bodies.state.failure !== undefined) throw bodies.state.failure;
  if (!interrupted && held.size > 0) {
    bodies.state.releasing = false;
    await retryHeld({ held, send: bodies.sendInSlot, rejected });
  }
  checkpoint.commit();
  progress();
  const sorted = [...rejected].sort((a, b) => a.line - b.line);
  return { totals, read, rejected: sorted, committedLine: checkpoint.line, interrupted };
}

/**
 * Feeds every record of the source to `take`; `stop` is asked after each record.
 * @param {AsyncIterable<string>} source
 * @param {(record: import("./csv.mjs").CsvRecord) => Promise<void>} take
 * @param {() => boolean} stop
 * @param {() => void} afterPiece
 * @returns {Promise<boolean>} whether it stopped before the end
 */
async function readAll(source, take, stop, afterPiece) {
  const parser = createCsvParser();
  for await (const text of source) {
    for (const record of parser.push(text)) {
      await take(record);
      if (stop()) return true;
    }
    afterPiece();
  }
  for (const record of parser.end()) await take(record);
  return false;
}

/**
 * The rows still held at the end, in rounds (file order, in bodies as large as the endpoint
 * takes, so the service sees a cycle whole) until a round writes nothing; then each is rejected
 * with the reason the service gave last.
 * @param {{ held: ReturnType<typeof createHeld>,
 *   send: (entries: Entry[]) => Promise<{ written: Entry[] }>, rejected: Rejection[] }} run
 */
async function retryHeld({ held, send, rejected }) {
  for (;;) {
    const entries = held.takeAll();
    if (entries.length === 0) return;
    let written = 0;
    for (const body of bodiesOf(entries, MAX_ROWS)) written += (await send(body)).written.length;
    if (written === 0) {
      for (const entry of held.takeAll()) {
        rejected.push({ line: entry.line, reason: entry.reason });
        held.lines.delete(entry.line);
      }
      return;
    }
  }
}

/**
 * @typedef {{
 *   kind: Kind, ctx: Context, api: Api, write: (text: string) => void | Promise<void>,
 *   concurrency?: number,
 *   onProgress?: (p: { rows: number, totalItems: number }) => void,
 * }} ExportOptions
 */

/**
 * Writes the header and every record of the kind, in the kind's order, paging through its list
 * with `concurrency` pages in flight, written in page order.
 * @param {ExportOptions} options
 * @returns {Promise<{ rows: number, totalItems: number, pages: number }>}
 */
export async function exportCsv(options) {
  const { kind, ctx, api, write, onProgress = () => {} } = options;
  const base = kind.listPath(ctx);
  /** @returns {Promise<{ data: any[], meta: { totalItems: number, totalPages: number } }>} */
  const page = async (/** @type {number} */ n) => {
    const res = await api.get(
      `${base}${base.includes("?") ? "&" : "?"}limit=${PAGE_SIZE}&page=${n}`,
    );
    if (res.status !== 200) throw new Error(`page ${n}: ${describeFailure(res)}`);
    return res.body;
  };
  const first = await page(1);
  const { totalItems, totalPages } = first.meta;
  let rows = 0;
  const emit = async (/** @type {{ data: any[] }} */ p) => {
    let text = "";
    for (const item of p.data) text += csvRow(kind.toRecord(item, ctx));
    rows += p.data.length;
    await write(text);
    onProgress({ rows, totalItems });
  };
  await write(csvRow(kind.columns));
  await emit(first);

  /** @type {Promise<any>[]} a sliding window of requests, written in page order */
  const window = [];
  let next = 2;
  const request = () => {
    const p = page(next++);
    p.catch(() => {}); // a failure surfaces when its turn is awaited, not as an unhandled rejection
    window.push(p);
  };
  const inFlight = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  while (next <= totalPages && window.length < inFlight) request();
  while (window.length > 0) {
    const p = await window.shift();
    if (next <= totalPages) request();
    await emit(p);
  }
  return { rows, totalItems, pages: totalPages };
}
