/** Words read in a minute, for reading times. */
export const WORDS_PER_MINUTE = 230;
/** The length of an excerpt, in characters (Unicode code points), its "…" included. */
export const EXCERPT_LENGTH = 200;

/** Scripts written without spaces between words, whose characters count as a word each. */
const UNSPACED = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}';
/** One unspaced character, or a run of other characters between spaces. */
const WORD_OR_CHARACTER = new RegExp(`[${UNSPACED}]|[^\\s${UNSPACED}]+`, 'gu');
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const UNSPACED_CHARACTER = new RegExp(`^[${UNSPACED}]$`, 'u');
/** What an excerpt does not end with, before its "…". */
const TRAILING = /[\s,;:\-–—]+$/u;

/**
 * The words of plain text: its runs of characters between whitespace that hold a letter or a
 * digit (a lone `—` is not a word), each Chinese or Japanese character (Han, Hiragana, Katakana)
 * counted as one, as those scripts put no spaces between words. Other scripts written without
 * spaces (Thai, Lao, Khmer …) count a run of text as one word.
 */
export function wordCountOf(text: string): number {
  let count = 0;
  for (const [word] of text.matchAll(WORD_OR_CHARACTER)) {
    if (LETTER_OR_DIGIT.test(word)) count += 1;
  }
  return count;
}

/**
 * The first `max` characters (Unicode code points) of `text`, its whitespace collapsed to single
 * spaces: the whole text if it fits, else cut at the last space (or between two Chinese or Japanese
 * characters) before the limit, trailing punctuation such as `,` dropped, and "…" added, all within
 * `max` characters. A first word longer than that is cut where the limit falls.
 */
export function excerptOf(text: string, max = EXCERPT_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  // Enough code units for max + 1 code points, however many are surrogate pairs.
  const characters = Array.from(flat.slice(0, 2 * max + 2));
  if (characters.length <= max) return flat;
  const room = Math.max(0, max - 1);
  let end = room;
  if (!boundaryAt(characters, room)) {
    end = room - 1;
    while (end > 0 && !boundaryAt(characters, end)) end -= 1;
    if (end === 0) end = room;
  }
  return `${characters.slice(0, end).join('').replace(TRAILING, '')}…`;
}

/** Whether a word may end before `characters[at]`. */
function boundaryAt(characters: string[], at: number): boolean {
  const before = characters[at - 1];
  const after = characters[at];
  if (before === undefined || after === undefined) return true;
  return (
    after === ' ' ||
    before === ' ' ||
    UNSPACED_CHARACTER.test(before) ||
    UNSPACED_CHARACTER.test(after)
  );
}

/** Minutes to read `wordCount` words at 230 words a minute, rounded up, at least 1. */
export function readingTimeMinutes(wordCount: number): number {
  const minutes = Math.ceil(wordCount / WORDS_PER_MINUTE);
  return Number.isFinite(minutes) && minutes > 1 ? minutes : 1;
}
