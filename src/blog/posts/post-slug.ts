import { badUserInput } from '../common/errors';
import { hasLoneSurrogate, withoutDefaultIgnorables } from '../common/validation';
import { tagSlug } from '../tags/tag-slug';

/** The longest slug of a post, in characters. */
export const MAX_SLUG_LENGTH = 80;
/** The slug of a post whose title leaves no letter or digit. */
export const FALLBACK_SLUG = 'post';

/** Latin letters that carry no combining mark to drop, and what they are written as. */
const LATIN_LETTERS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  ħ: 'h',
  Ħ: 'h',
};
const LATIN_LETTER = new RegExp(`[${Object.keys(LATIN_LETTERS).join('')}]`, 'gu');

/** Latin letters without their accents (`é` as `e`, `ß` as `ss`); other scripts as they are. */
function transliterated(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .replace(LATIN_LETTER, (letter) => LATIN_LETTERS[letter])
    .normalize('NFC');
}

/** `slug` cut to {@link MAX_SLUG_LENGTH} characters, at a dash when one is in its second half. */
function cut(slug: string, max = MAX_SLUG_LENGTH): string {
  const characters = [...slug];
  if (characters.length <= max) return slug;
  const head = characters.slice(0, max).join('');
  const dash = head.lastIndexOf('-');
  return (dash >= head.length / 2 ? head.slice(0, dash) : head).replace(/-+$/, '');
}

/**
 * The slug of a text (a title, or a slug as an author typed it): Latin letters without their
 * accents, letters of other scripts kept, lower case, every run of other characters as one
 * dash, at most {@link MAX_SLUG_LENGTH} characters. The rest of the rules are those of tags
 * (see tagSlug). Empty when no letter or digit is left.
 */
export function slugOf(text: string): string {
  return cut(uncutSlugOf(text));
}

function uncutSlugOf(text: string): string {
  return tagSlug(
    transliterated(withoutDefaultIgnorables(text)).replace(/[^\p{L}\p{M}\p{N}]+/gu, ' '),
  );
}

/** The slug made from a post's title; {@link FALLBACK_SLUG} when the title leaves none. */
export function slugOfTitle(title: string): string {
  return slugOf(title) || FALLBACK_SLUG;
}

/**
 * The slug an author asked for, in the form it is stored: BAD_USER_INPUT (for `field`) when it
 * leaves no letter or digit or is longer than {@link MAX_SLUG_LENGTH} characters once made a
 * slug.
 */
export function requestedSlug(slug: string, field: string): string {
  if (hasLoneSurrogate(slug)) throw badUserInput('A slug may not hold lone surrogates.', field);
  const made = uncutSlugOf(slug);
  if (!made) throw badUserInput('A slug needs at least one letter or digit.', field);
  if ([...made].length > MAX_SLUG_LENGTH) {
    throw badUserInput(`A slug has at most ${MAX_SLUG_LENGTH} characters.`, field);
  }
  return made;
}

/**
 * The slugs to try for `base`, in order, from the `round`th batch of `size`: `base`, `base-2`,
 * `base-3` … Each is cut so that the suffix fits in {@link MAX_SLUG_LENGTH}.
 */
export function slugCandidates(base: string, round: number, size = 50): string[] {
  return Array.from({ length: size }, (_, i) => {
    const n = round * size + i + 1;
    if (n === 1) return base;
    const suffix = `-${n}`;
    return `${cut(base, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
  });
}

/** The form of a slug asked for by `postBySlug`: what a slug of it would be, or '' for none. */
export function lookupSlug(slug: string): string {
  if (hasLoneSurrogate(slug) || slug.length > 4 * MAX_SLUG_LENGTH) return '';
  return slug.normalize('NFC').toLowerCase().trim();
}
