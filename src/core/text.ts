/**
 * Free text (names, descriptions) is shown to people in back offices, exports and logs, so it
 * may not carry characters that hide or disguise what it says:
 * - control characters (a name is one line; a description may hold line breaks and tabs);
 * - lone UTF-16 surrogates, which are not text and turn into U+FFFD or errors downstream;
 * - bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069), which
 *   can make a name read differently from what it is ("Trojan Source").
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
const LONE_SURROGATE = /\p{Cs}/u;

const codePoint = (char: string) =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** Why `value` is not acceptable text, as the end of a sentence about the field; undefined if it is. */
export function unsafeTextReason(value: string, multiline = false): string | undefined {
  if (LONE_SURROGATE.test(value)) return "must be valid Unicode text (it holds a lone surrogate)";
  const control = (multiline ? CONTROL_EXCEPT_LINES : CONTROL).exec(value);
  if (control) return `must not contain control characters (found ${codePoint(control[0])})`;
  const bidi = BIDI_CONTROL.exec(value);
  if (bidi) {
    return `must not contain bidirectional control characters (found ${codePoint(bidi[0])})`;
  }
  return undefined;
}
