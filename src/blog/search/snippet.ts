import { foldWord, SearchQuery, SearchTerm } from './search-query';

/** How many words a snippet shows. */
export const SNIPPET_WORDS = 24;
/** How many words before the first match a snippet starts, for context. */
const LEAD_WORDS = 4;

const WORD = /[\p{L}\p{M}\p{N}\p{Co}]+/gu;
const ELLIPSIS = '…';

interface Word {
  start: number;
  end: number;
  /** The word as the index compares it (see {@link foldWord}). */
  folded: string;
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

function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    folded: foldWord(m[0]),
  }));
}

/** The indexes of the words of `text` that an included term matches. */
function matchedWords(words: Word[], terms: SearchTerm[]): Set<number> {
  const matched = new Set<number>();
  for (const term of terms) {
    const wanted = term.words;
    const last = wanted.length - 1;
    for (let at = 0; at + last < words.length; at++) {
      const fits = wanted.every((word, i) =>
        i === last && term.prefix
          ? words[at + i].folded.startsWith(word)
          : words[at + i].folded === word,
      );
      if (fits) for (let i = 0; i <= last; i++) matched.add(at + i);
    }
  }
  return matched;
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
  const words = wordsOf(text);
  const matched = matchedWords(words, query.include);
  if (matched.size === 0) return null;
  return fragment(text, words, bestStart(words.length, matched), matched);
}

/** The first {@link SNIPPET_WORDS} words of `text`, as HTML, when no word of it matches. */
export function openingOf(text: string): string {
  const words = wordsOf(text);
  return words.length === 0 ? escapeHtml(text.trim()) : fragment(text, words, 0, new Set());
}

function fragment(text: string, words: Word[], start: number, matched: Set<number>): string {
  const end = Math.min(words.length, start + SNIPPET_WORDS);
  let html = start > 0 ? ELLIPSIS : escapeHtml(text.slice(0, words[0].start).trimStart());
  let at = words[start].start;
  for (let i = start; i < end; i++) {
    const word = words[i];
    html += escapeHtml(text.slice(at, word.start));
    const shown = escapeHtml(text.slice(word.start, word.end));
    html += matched.has(i) ? `<mark>${shown}</mark>` : shown;
    at = word.end;
  }
  const rest = text.slice(at);
  // What follows the last word up to the next word (a full stop, a closing bracket) stays.
  const tail = end < words.length ? rest.slice(0, words[end].start - at) : rest;
  html += escapeHtml(tail.trimEnd());
  return end < words.length ? `${html}${ELLIPSIS}` : html;
}
