/**
 * Text from git, the platform or a manifest shown on a terminal. A terminal obeys control
 * characters wherever they come from: ESC and CSI (`\x1b[`, `\x9b`) clear the screen, move the
 * cursor and fake colours, OSC (`\x1b]0;...\x07`) retitles the window or writes a hyperlink,
 * `\r` overwrites a line, bidirectional overrides reorder what is read. Everything printed that
 * someone else could have written goes through {@link printable}; the JSON platctl prints goes
 * through {@link printableJson}.
 */

/** Tab and line feed: kept in multi-line text. */
const LAYOUT = /[\t\n]/;

/**
 * C0 controls, DEL, C1 controls (U+0080–U+009F: CSI, OSC, ST... as single code points), the
 * bidirectional marks, embeddings, overrides and isolates, and the line and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** `\x1b` for a control below U+0100, `\u202e` above; `\t`, `\n`, `\r` by name. */
function escaped(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character written as a visible escape (`\x1b`, `\x07`, `\x9b`,
 * `\u202e`), so it prints as what it says and does nothing to the terminal (pure). One line by
 * default: a newline or tab is escaped too, so a value cannot fake a line of its own; with
 * `multiline`, `\n` and `\t` are kept (an error message of several lines). Plain text is returned
 * as it is.
 */
export function printable(text: string, options: { readonly multiline?: boolean } = {}): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  const keep = options.multiline === true;
  return text.replace(CONTROL, (ch) => (keep && LAYOUT.test(ch) ? ch : escaped(ch)));
}

/**
 * What JSON.stringify leaves raw and a terminal still obeys: DEL, the C1 controls, bidirectional
 * controls and the line separators (C0 is already escaped by JSON.stringify).
 */
const RAW_IN_JSON = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Serialized JSON with the control characters that JSON.stringify leaves raw written as `\uXXXX`
 * escapes (pure). They can only occur inside strings, so the document means exactly the same.
 */
export function printableJson(json: string): string {
  return json.replace(RAW_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
