/**
 * A cheap pre-scan that refuses absurdly deep nesting before the YAML library composes it: the
 * composer recurses once per level, and tens of thousands of levels (`[[[[...` or `- - - - ...`,
 * a few kilobytes of text) exhaust the call stack, which can take the whole process down rather
 * than raise an error. Real manifests nest a few dozen levels at most.
 */

// character codes: the scan compares codes, cheaper than one-character strings
const [SPACE, TAB, CR, HASH, DASH, QUESTION, DOUBLE, SINGLE] = [32, 9, 13, 35, 45, 63, 34, 39];
const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = [91, 93, 123, 125];

/** Where nesting first exceeds `maxDepth`, as a 0-based offset into `text`; undefined if never. */
export function tooDeepAt(text: string, maxDepth: number): number | undefined {
  let flow = 0; // open [ and { not yet closed
  const indents: number[] = []; // block indentation stack, as in Python's tokenizer
  let i = 0;
  // the next [ or { at or after the current line (-1: none left): while no flow collection is
  // open, a line without one cannot change the flow depth, and its characters are not visited
  let nextOpen = -2;
  while (i < text.length) {
    // One line: indentation, then content.
    let col = 0;
    while (text.charCodeAt(i + col) === SPACE) col++;
    const start = i + col;
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const first = text.charCodeAt(start);
    if (flow === 0 && start < end && first !== HASH && first !== CR) {
      while (indents.length > 0 && indents[indents.length - 1]! >= col) indents.pop();
      indents.push(col);
      // Compact nested sequences and explicit keys on one line: `- - - x`, `? ? x`.
      let j = start;
      let compact = 0;
      while (
        (text.charCodeAt(j) === DASH || text.charCodeAt(j) === QUESTION) &&
        (text.charCodeAt(j + 1) === SPACE || text.charCodeAt(j + 1) === TAB)
      ) {
        compact++;
        j += 2;
        while (text.charCodeAt(j) === SPACE) j++;
      }
      if (indents.length + compact > maxDepth) return start;
    }
    // Flow collections anywhere on the line, skipping quoted text and comments.
    if (flow === 0) {
      if (nextOpen !== -1 && nextOpen < start) nextOpen = nextFlowOpen(text, start);
      if (nextOpen === -1 || nextOpen >= end) {
        i = end + 1;
        continue;
      }
    }
    let quote = 0; // the quote character a quoted part started with, or 0
    for (let k = start; k < end; k++) {
      const c = text.charCodeAt(k);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === DOUBLE || c === SINGLE) quote = c;
      else if (c === HASH && (k === start || text.charCodeAt(k - 1) === SPACE)) break;
      else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
        if (++flow > maxDepth) return k;
      } else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && flow > 0) flow--;
    }
    i = end + 1;
  }
  return undefined;
}

/** The offset of the first `[` or `{` at or after `from`, or -1. */
function nextFlowOpen(text: string, from: number): number {
  const bracket = text.indexOf('[', from);
  const brace = text.indexOf('{', from);
  return bracket === -1 ? brace : brace === -1 ? bracket : Math.min(bracket, brace);
}
