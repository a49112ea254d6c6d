/**
 * A cheap pre-scan that refuses absurdly deep nesting before the YAML library composes it: the
 * composer recurses once per level, and tens of thousands of levels (`[[[[...` or `- - - - ...`,
 * a few kilobytes of text) exhaust the call stack, which can take the whole process down rather
 * than raise an error. Real manifests nest a few dozen levels at most.
 */

/** Where nesting first exceeds `maxDepth`, as a 0-based offset into `text`; undefined if never. */
export function tooDeepAt(text: string, maxDepth: number): number | undefined {
  let flow = 0; // open [ and { not yet closed
  const indents: number[] = []; // block indentation stack, as in Python's tokenizer
  let i = 0;
  while (i < text.length) {
    // One line: indentation, then content.
    let col = 0;
    while (text[i + col] === ' ') col++;
    const start = i + col;
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const first = text[start];
    if (flow === 0 && start < end && first !== '#' && first !== '\r') {
      while (indents.length > 0 && indents[indents.length - 1]! >= col) indents.pop();
      indents.push(col);
      // Compact nested sequences and explicit keys on one line: `- - - x`, `? ? x`.
      let j = start;
      let compact = 0;
      while (
        (text[j] === '-' || text[j] === '?') &&
        (text[j + 1] === ' ' || text[j + 1] === '\t')
      ) {
        compact++;
        j += 2;
        while (text[j] === ' ') j++;
      }
      if (indents.length + compact > maxDepth) return start;
    }
    // Flow collections anywhere on the line, skipping quoted text and comments.
    let quote: string | undefined;
    for (let k = start; k < end; k++) {
      const c = text[k];
      if (quote) {
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (k === start || text[k - 1] === ' ')) break;
      else if (c === '[' || c === '{') {
        if (++flow > maxDepth) return k;
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
    i = end + 1;
  }
  return undefined;
}
