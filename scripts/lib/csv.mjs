/**
 * A small streaming CSV reader and writer (RFC 4180, comma-separated), pure: no Node APIs, so
 * the Worker tests can import it too.
 *
 * Reading: text arrives in pieces of any size (a chunk may end inside a field, a quote pair or a
 * CRLF); `push` returns the records completed so far, `end` the last one. Each record carries the
 * physical line it starts on (1-based, counting CRLF, LF and lone CR as one break each), so
 * errors can name lines as a spreadsheet shows them. A UTF-8 byte order mark at the very start is
 * dropped. Quoted fields may hold commas, doubled quotes and line breaks. Blank lines are skipped.
 * A malformed record (text after a closing quote, a quote inside an unquoted field, an
 * unterminated quoted field) becomes a record with `error` set; reading resumes at the next line.
 *
 * Empty text and no value: `csvRow` writes null as an empty field and the empty string as `""`;
 * the reader lists the fields written `""` in `quotedEmpty`, so the two survive a round trip.
 */

/**
 * @typedef {{ line: number, fields: string[], error?: string, quotedEmpty?: number[] }} CsvRecord
 *   `quotedEmpty`: the indexes of the fields written `""` (absent when there are none)
 */

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** Just read a quote inside a quoted field: a second quote is a literal one, else the field ends. */
const QUOTE_IN_QUOTED = 3;
/** After an error: ignore everything up to the next line break. */
const SKIP_LINE = 4;

export function createCsvParser() {
  let state = FIELD_START;
  let field = "";
  /** @type {string[]} */
  let fields = [];
  let line = 1;
  let recordLine = 1;
  /** The previous character was a CR, so an LF right after it is the same line break. */
  let afterCr = false;
  let started = false;
  /** @type {string | undefined} */
  let error;
  /** The field being read started with a quote. */
  let quoted = false;
  /** @type {number[]} */
  let quotedEmpty = [];
  /** @type {CsvRecord[]} */
  let out = [];

  /** Ends the current field. */
  const take = () => {
    if (quoted && field === "") quotedEmpty.push(fields.length);
    fields.push(field);
    field = "";
    quoted = false;
  };

  const endRecord = () => {
    if (error !== undefined) out.push({ line: recordLine, fields, error });
    else if (quotedEmpty.length > 0) out.push({ line: recordLine, fields, quotedEmpty });
    else if (fields.length > 1 || fields[0] !== "") out.push({ line: recordLine, fields });
    fields = [];
    field = "";
    quoted = false;
    quotedEmpty = [];
    error = undefined;
    state = FIELD_START;
  };

  /** @param {string} message */
  const fail = (message) => {
    error = message;
    take();
    state = SKIP_LINE;
  };

  /** @param {string} text */
  function push(text) {
    out = [];
    let i = 0;
    if (!started && text.length > 0) {
      started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (; i < text.length; i++) {
      const ch = /** @type {string} */ (text[i]);
      const wasCr = afterCr;
      afterCr = ch === "\r";
      if (state === QUOTED) {
        if (ch === '"') state = QUOTE_IN_QUOTED;
        else {
          field += ch;
          if (ch === "\r" || (ch === "\n" && !wasCr)) line++;
        }
        continue;
      }
      if (ch === "\n" && wasCr) continue; // the LF of a CRLF whose CR ended the record
      if (ch === "\r" || ch === "\n") {
        if (state !== SKIP_LINE) take();
        endRecord();
        line++;
        recordLine = line;
        continue;
      }
      switch (state) {
        case SKIP_LINE:
          break;
        case FIELD_START:
          if (ch === '"') {
            state = QUOTED;
            quoted = true;
          } else if (ch === ",") take();
          else {
            field = ch;
            state = UNQUOTED;
          }
          break;
        case UNQUOTED:
          if (ch === ",") {
            take();
            state = FIELD_START;
          } else if (ch === '"')
            fail(`a quote inside an unquoted field (field ${fields.length + 1})`);
          else field += ch;
          break;
        case QUOTE_IN_QUOTED:
          if (ch === '"') {
            field += '"';
            state = QUOTED;
          } else if (ch === ",") {
            take();
            state = FIELD_START;
          } else fail(`text after the closing quote of field ${fields.length + 1}`);
          break;
      }
    }
    return out;
  }

  /** The record still open at the end of the input, if any. */
  function end() {
    out = [];
    if (state === QUOTED) {
      error = `a quoted field is not closed (field ${fields.length + 1})`;
      take();
      endRecord();
    } else if (state !== FIELD_START || fields.length > 0) {
      if (state !== SKIP_LINE) take();
      endRecord();
    }
    return out;
  }

  return { push, end };
}

/**
 * Every record of a whole text (tests, small files).
 * @param {string} text
 * @returns {CsvRecord[]}
 */
export function parseCsv(text) {
  const parser = createCsvParser();
  return [...parser.push(text), ...parser.end()];
}

/**
 * One field, quoted only when it has to be (comma, quote, line break, edge spaces, or empty: `""`
 * is the empty text, an empty field is null).
 * @param {string | null} value
 */
export function csvField(value) {
  if (value === null) return "";
  return value === "" || /[",\r\n]|^\s|\s$/.test(value)
    ? `"${value.replaceAll('"', '""')}"`
    : value;
}

/**
 * One line of CSV, LF-terminated.
 * @param {readonly (string | number | null)[]} values
 */
export function csvRow(values) {
  return `${values.map((v) => csvField(v === null ? null : String(v))).join(",")}\n`;
}
