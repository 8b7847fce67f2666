import { foldWord, SearchQuery, SearchTerm } from './search-query';

/** How many words a snippet shows. */
export const SNIPPET_WORDS = 24;
/** How many words before the first match a snippet starts, for context. */
const LEAD_WORDS = 4;

const WORD = /[\p{L}\p{M}\p{N}\p{Co}]+/gu;
const NON_ASCII = /[\u0080-\uffff]/;
const ELLIPSIS = '…';

/**
 * The words of a text: where each starts and ends, and how the index compares them (see
 * {@link foldWord}). Most posts are ASCII, whose words fold to their lower case: the text is
 * lowered once and compared in place, rather than each word copied and folded (a page of
 * snippets reads thousands of words).
 */
class Words {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  private readonly lower: string | null;
  private readonly folded: string[] = [];

  constructor(text: string) {
    const ascii = !NON_ASCII.test(text);
    this.lower = ascii ? text.toLowerCase() : null;
    if (ascii) this.scanAscii(text);
    else {
      WORD.lastIndex = 0;
      for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
        this.starts.push(m.index);
        this.ends.push(m.index + m[0].length);
        this.folded.push(foldWord(m[0]));
      }
    }
  }

  /** The runs of ASCII letters and digits: {@link WORD} has no other ASCII characters. */
  private scanAscii(text: string): void {
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 0;
      const letter = c | 0x20;
      const inWord = (letter >= 0x61 && letter <= 0x7a) || (c >= 0x30 && c <= 0x39);
      if (inWord && start < 0) start = i;
      else if (!inWord && start >= 0) {
        this.starts.push(start);
        this.ends.push(i);
        start = -1;
      }
    }
  }

  get count(): number {
    return this.starts.length;
  }

  /** Whether word `i`, folded, is `word` (`prefix`: starts with it). */
  fits(i: number, word: string, prefix: boolean): boolean {
    if (this.lower === null) {
      const folded = this.folded[i];
      return prefix ? folded.startsWith(word) : folded === word;
    }
    const length = this.ends[i] - this.starts[i];
    return (
      (prefix ? length >= word.length : length === word.length) &&
      this.lower.startsWith(word, this.starts[i])
    );
  }
}

const HTML: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML that shows it as it is; line breaks and runs of spaces read as one space. */
export const escapeHtml = (text: string) =>
  text.replace(/\s+/gu, ' ').replace(/[&<>"']/g, (c) => HTML[c]);

/** The indexes of the words of the text that an included term matches. */
function matchedWords(words: Words, terms: SearchTerm[]): Set<number> {
  const matched = new Set<number>();
  for (const { words: wanted, prefix } of terms) {
    const last = wanted.length - 1;
    for (let at = 0; at + last < words.count; at++) {
      let fits = true;
      for (let i = 0; fits && i <= last; i++) {
        fits = words.fits(at + i, wanted[i], prefix && i === last);
      }
      if (fits) for (let i = 0; i <= last; i++) matched.add(at + i);
    }
  }
  return matched;
}

/** The indexes, in order, of the words of `text` that `query` marks in a snippet. */
export function markedWords(text: string, query: SearchQuery): number[] {
  return [...matchedWords(new Words(text), query.include)].sort((a, b) => a - b);
}

/** Where the window of {@link SNIPPET_WORDS} words that shows the most matches starts. */
function bestStart(count: number, matched: Set<number>): number {
  const sorted = [...matched].sort((a, b) => a - b);
  let best = { start: 0, shown: -1 };
  let last = 0;
  for (let first = 0; first < sorted.length; first++) {
    const start = Math.max(0, Math.min(sorted[first] - LEAD_WORDS, count - SNIPPET_WORDS));
    while (last < sorted.length && sorted[last] < start + SNIPPET_WORDS) last++;
    const shown = last - first;
    if (shown > best.shown) best = { start, shown };
  }
  return best.start;
}

/**
 * A fragment of `text` of about {@link SNIPPET_WORDS} words around the words that `query`
 * matches, as HTML: the matched words in `<mark>…</mark>`, every other character escaped, and
 * `…` where the text goes on. Null when no word of `text` matches.
 */
export function snippetOf(text: string, query: SearchQuery): string | null {
  const words = new Words(text);
  const matched = matchedWords(words, query.include);
  if (matched.size === 0) return null;
  return fragment(text, words, bestStart(words.count, matched), matched);
}

/** The first {@link SNIPPET_WORDS} words of `text`, as HTML, when no word of it matches. */
export function openingOf(text: string): string {
  const words = new Words(text);
  return words.count === 0 ? escapeHtml(text.trim()) : fragment(text, words, 0, new Set());
}

function fragment(text: string, words: Words, start: number, matched: Set<number>): string {
  const { starts, ends, count } = words;
  const end = Math.min(count, start + SNIPPET_WORDS);
  let html = start > 0 ? ELLIPSIS : escapeHtml(text.slice(0, starts[0]).trimStart());
  let at = starts[start];
  for (let i = start; i < end; i++) {
    const gap = text.slice(at, starts[i]);
    html += gap === ' ' ? gap : escapeHtml(gap);
    // A word holds letters, marks and digits only: nothing that HTML escapes.
    const shown = text.slice(starts[i], ends[i]);
    html += matched.has(i) ? `<mark>${shown}</mark>` : shown;
    at = ends[i];
  }
  const rest = text.slice(at);
  // What follows the last word up to the next word (a full stop, a closing bracket) stays.
  const tail = end < count ? rest.slice(0, starts[end] - at) : rest;
  html += escapeHtml(tail.trimEnd());
  return end < count ? `${html}${ELLIPSIS}` : html;
}
