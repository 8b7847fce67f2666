import { foldWord, SearchQuery, SearchTerm } from './search-query';
import { PostText, searchedContent } from '../posts/post-search-text';

/** How many words a snippet shows at most. */
export const SNIPPET_WORDS = 24;
/**
 * How many characters of the text a snippet shows at most (UTF-16 units, counted once line
 * breaks and runs of spaces are one space, before escaping): 24 words of prose fit, and a longer
 * word, or a long run of punctuation, is cut where they run out, with `…` after it.
 */
export const SNIPPET_CHARACTERS = 300;
/**
 * The longest snippet, in UTF-16 units: every character shown escaped to at most 6 (`&quot;`),
 * every word shown marked (`<mark></mark>`, 13), and a `…` at each end.
 */
export const MAX_SNIPPET_LENGTH = 6 * SNIPPET_CHARACTERS + 13 * SNIPPET_WORDS + 2;
/** How many words before the first match a snippet starts, for context. */
const LEAD_WORDS = 4;
/** The most characters those words may take, so that the match is shown however long they are. */
const LEAD_CHARACTERS = SNIPPET_CHARACTERS / 2;

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

const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (c) => HTML[c]);

/** Text as HTML that shows it as it is; line breaks and runs of spaces read as one space. */
export const escapeHtml = (text: string) => escapeMarkup(text.replace(/\s+/gu, ' '));

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

/** The words that a snippet marks: a set, or a scan's marks (see {@link bestWindow}). */
interface Marks {
  has(index: number): boolean;
}

/**
 * Where the window that shows the most matches starts (see {@link bestStart}), and whether it
 * shows what comes before the text's first word: moved on past lead words, and past that
 * opening, so long that the first match would not be shown.
 */
function windowStart(
  words: Words,
  matched: Marks,
  start: number,
): { start: number; opening: boolean } {
  let first = start;
  while (!matched.has(first)) first++;
  const far = (at: number) => words.starts[first] - at > LEAD_CHARACTERS;
  if (start === 0 && !far(0)) return { start, opening: true };
  while (start < first && far(words.starts[start])) start++;
  return { start, opening: false };
}

/**
 * {@link bestStart} of the words that `terms` match, found in one pass over the words that stops
 * as soon as a window shows nothing but matches, which no later window can beat: a text made of
 * the query's words is not read to its end. The window and the marks are those of a full scan
 * (the snippet's spec holds the two against each other): each window is weighed, in
 * {@link bestStart}'s order, once the scan has passed its last word, when its marks are final.
 */
function bestWindow(words: Words, terms: SearchTerm[]): { start: number; marks: Marks } | null {
  const { count } = words;
  const marks = new Uint8Array(count);
  const most = Math.min(SNIPPET_WORDS, count);
  /** Matched words, in order, whose window is still to be weighed. */
  const pending: number[] = [];
  let next = 0;
  let best = { start: 0, shown: -1 };
  const windowOf = (word: number) =>
    Math.max(0, Math.min(word - LEAD_WORDS, count - SNIPPET_WORDS));
  const weigh = (upTo: number): boolean => {
    while (next < pending.length && windowOf(pending[next]) + SNIPPET_WORDS - 1 <= upTo) {
      const word = pending[next++];
      const start = windowOf(word);
      // As bestStart counts: the matches from this one to the window's end.
      let shown = 0;
      for (let i = word; i < start + SNIPPET_WORDS && i < count; i++) shown += marks[i];
      if (shown > best.shown) best = { start, shown };
      if (best.shown === most) return true;
    }
    return false;
  };
  for (let at = 0; at < count; at++) {
    for (const { words: wanted, prefix } of terms) {
      const last = wanted.length - 1;
      if (at + last >= count) continue;
      let fits = true;
      for (let i = 0; fits && i <= last; i++)
        fits = words.fits(at + i, wanted[i], prefix && i === last);
      if (fits) for (let i = 0; i <= last; i++) marks[at + i] = 1;
    }
    // Word `at` is final now: no term starting later covers it.
    if (marks[at]) pending.push(at);
    if (weigh(at)) break;
  }
  if (pending.length === 0) return null;
  weigh(Infinity);
  return { start: best.start, marks: { has: (index) => marks[index] === 1 } };
}

/**
 * A fragment of `text` of at most {@link SNIPPET_WORDS} words and {@link SNIPPET_CHARACTERS}
 * characters around the words that `query` matches, as HTML: the matched words in
 * `<mark>…</mark>`, every other character escaped, and `…` where the text goes on. At most
 * {@link MAX_SNIPPET_LENGTH} long. Null when no word of `text` matches.
 */
export function snippetOf(text: string, query: SearchQuery): string | null {
  const words = new Words(text);
  const window = bestWindow(words, query.include);
  if (!window) return null;
  const { start, opening } = windowStart(words, window.marks, window.start);
  return fragment(text, words, start, opening, window.marks);
}

/**
 * {@link snippetOf} as it was written first, with a scan of the whole text: the plain path that
 * the snippet's spec holds the one-pass scan against.
 */
export function snippetOfByFullScan(text: string, query: SearchQuery): string | null {
  const words = new Words(text);
  const matched = matchedWords(words, query.include);
  if (matched.size === 0) return null;
  const { start, opening } = windowStart(words, matched, bestStart(words.count, matched));
  return fragment(text, words, start, opening, matched);
}

/** The first words of `text`, as HTML, when no word of it matches; bounded as a snippet is. */
export function openingOf(text: string): string {
  const words = new Words(text);
  if (words.count > 0) return fragment(text, words, 0, true, new Set());
  const html = new Html();
  html.text(text.trim());
  return html.cut ? `${html.html}${ELLIPSIS}` : html.html;
}

/**
 * HTML of at most {@link SNIPPET_CHARACTERS} characters of text: what does not fit is cut, at
 * a whole code point, and `cut` says so.
 */
class Html {
  html = '';
  cut = false;
  private left = SNIPPET_CHARACTERS;

  /** Appends text that is not a word: spaces as one, escaped. False once nothing more fits. */
  text(raw: string): boolean {
    if (raw === ' ') return this.word(raw, false);
    return this.append(raw.replace(/\s+/gu, ' '), escapeMarkup);
  }

  /** Appends a word (letters, marks and digits only: nothing to escape), marked or not. */
  word(shown: string, marked: boolean): boolean {
    return this.append(shown, marked ? (word) => `<mark>${word}</mark>` : (word) => word);
  }

  private append(visible: string, html: (visible: string) => string): boolean {
    if (this.cut) return false;
    if (visible.length <= this.left) {
      this.left -= visible.length;
      if (visible !== '') this.html += html(visible);
      return true;
    }
    let end = this.left;
    // Not between the two halves of a character beyond the BMP.
    if (end > 0 && (visible.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    if (end > 0) this.html += html(visible.slice(0, end));
    this.left = 0;
    this.cut = true;
    return false;
  }
}

/**
 * The HTML of the words from `start` on, with the text between them, bounded; with what comes
 * before the text's first word when `opening`, and `…` where the text goes on.
 */
function fragment(
  text: string,
  words: Words,
  start: number,
  opening: boolean,
  matched: Marks,
): string {
  const { starts, ends, count } = words;
  const end = Math.min(count, start + SNIPPET_WORDS);
  const html = new Html();
  if (opening) html.text(text.slice(0, starts[0]).trimStart());
  let at = starts[start];
  for (let i = start; i < end; i++) {
    if (!html.text(text.slice(at, starts[i]))) break;
    if (!html.word(text.slice(starts[i], ends[i]), matched.has(i))) break;
    at = ends[i];
  }
  if (!html.cut) {
    const rest = text.slice(at);
    // What follows the last word up to the next word (a full stop, a closing bracket) stays.
    const tail = end < count ? rest.slice(0, starts[end] - at) : rest;
    html.text(tail.trimEnd());
  }
  const lead = opening || text.slice(0, starts[start]).trim() === '' ? '' : ELLIPSIS;
  return html.cut || end < count ? `${lead}${html.html}${ELLIPSIS}` : `${lead}${html.html}`;
}

/**
 * The snippet of a post that `query` found: of the part of its text that the index reads (its
 * rendered plain text, never its Markdown: see PostText and {@link searchedContent}) where a word
 * of it matches, else of its title, else the text's opening words. At most
 * {@link MAX_SNIPPET_LENGTH} long.
 */
export function snippetOfPost(post: PostText, query: SearchQuery): string {
  const content = searchedContent(post.content);
  return snippetOf(content, query) ?? snippetOf(post.title, query) ?? openingOf(content);
}
