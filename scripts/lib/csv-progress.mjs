/**
 * A progress bar on stderr, hand-rolled, redrawn in place (at most 10 times a second), only when
 * stderr is a terminal: in a log (CI, a pipe, a file) it writes nothing, so logs hold the summary
 * alone.
 */

const WIDTH = 28;

/** @param {number} n */
const count = (n) => n.toLocaleString("en-US");

/** @param {number} seconds */
const duration = (seconds) =>
  seconds >= 90
    ? `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, "0")}s`
    : `${seconds.toFixed(0)}s`;

/**
 * @param {{ label: string, total: number, stream?: NodeJS.WriteStream }} options
 *   `total` in the same unit as `update`'s `done` (bytes of a file, rows of an export)
 */
export function createProgress({ label, total, stream = process.stderr }) {
  const started = performance.now();
  const tty = Boolean(stream.isTTY);
  let lastDraw = 0;
  let drawn = false;

  /**
   * @param {number} done
   * @param {string} detail e.g. "12,000 rows"
   * @param {boolean} [force]
   */
  function update(done, detail, force = false) {
    if (!tty) return;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const elapsed = (performance.now() - started) / 1000;
    const eta = ratio > 0 && ratio < 1 ? ` eta ${duration((elapsed / ratio) * (1 - ratio))}` : "";
    const percent = `${Math.floor(ratio * 100)}`.padStart(3);
    const now = performance.now();
    if (!force && now - lastDraw < 100) return;
    lastDraw = now;
    const full = Math.round(ratio * WIDTH);
    const bar = "#".repeat(full) + "-".repeat(WIDTH - full);
    stream.write(`\r${label} [${bar}] ${percent}% ${detail} ${duration(elapsed)}${eta}\x1b[K`);
    drawn = true;
  }

  /** Ends the bar's line, so what follows starts on a fresh one. */
  function done() {
    if (tty && drawn) stream.write("\n");
    drawn = false;
  }

  /** Prints a line above the bar without garbling it. */
  function log(/** @type {string} */ text) {
    if (tty && drawn) stream.write("\r\x1b[K");
    stream.write(`${text}\n`);
    lastDraw = 0;
  }

  return { update, done, log, count };
}

export { count };
