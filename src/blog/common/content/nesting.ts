/**
 * How many block quotes and list items one line may open. marked reads each level with a call of
 * its own, so ten thousand `>` would overflow the stack, after seconds of work.
 */
export const MAX_NESTING = 32;

const SPACE = 0x20;
const TAB = 0x09;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * `markdown` with a backslash before the marker that would open a block quote or list item deeper
 * than `MAX_NESTING` on its line: that marker and the rest of the line are read as text. A line of
 * a fenced code block with that many markers gets the backslash too.
 */
export function withBoundedNesting(markdown: string): string {
  const cuts: number[] = [];
  for (let from = 0; from <= markdown.length;) {
    const newline = markdown.indexOf('\n', from);
    const to = newline === -1 ? markdown.length : newline;
    const cut = deepMarkerAt(markdown, from, to);
    if (cut !== -1) cuts.push(cut);
    from = to + 1;
  }
  if (cuts.length === 0) return markdown;
  let bounded = '';
  let last = 0;
  for (const cut of cuts) {
    bounded += `${markdown.slice(last, cut)}\\`;
    last = cut;
  }
  return bounded + markdown.slice(last);
}

/** Where the punctuation of the marker past `MAX_NESTING` is in `text[from, to)`, or -1. */
function deepMarkerAt(text: string, from: number, to: number): number {
  let depth = 0;
  let at = from;
  while (at < to) {
    const code = text.charCodeAt(at);
    if (code === SPACE || code === TAB) {
      at += 1;
      continue;
    }
    const end = markerEnd(text, at, to);
    if (end === -1) return -1;
    depth += 1;
    if (depth > MAX_NESTING) return end - 1;
    at = end;
  }
  return -1;
}

/** The end of the block quote or list item marker at `at`, or -1 if there is none. */
function markerEnd(text: string, at: number, to: number): number {
  const char = text[at];
  if (char === '>') return at + 1;
  if (char === '-' || char === '+' || char === '*') return blankAt(text, at + 1, to) ? at + 1 : -1;
  let end = at;
  while (end < to && end - at < 9 && isDigit(text.charCodeAt(end))) end += 1;
  if (end === at || (text[end] !== '.' && text[end] !== ')')) return -1;
  return blankAt(text, end + 1, to) ? end + 1 : -1;
}

function blankAt(text: string, at: number, to: number): boolean {
  if (at >= to) return true;
  const code = text.charCodeAt(at);
  return code === SPACE || code === TAB;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}
