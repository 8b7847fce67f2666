import { badUserInput } from '../common/errors';
import { hasLoneSurrogate, withoutDefaultIgnorables } from '../common/validation';
import { canonicalIdentifier } from '../users/user-identifiers';

/** The most tags a post has, and the most a filter names. */
export const MAX_TAGS = 5;
/** The longest slug, in characters. */
export const MAX_TAG_LENGTH = 64;
/**
 * The most non-spacing marks a slug stacks on one letter (or digit, or dash), decomposed: enough
 * for Vietnamese `ệ` (e, dot below, circumflex) and Hindi `ज़िं`, not for a pile of accents.
 */
export const MAX_STACKED_MARKS = 2;

/** A run of combining marks, after the character that carries them. */
const MARK_RUN = /\p{M}+/gu;
/**
 * A mark drawn over or under the character before it (non-spacing, or enclosing), which can be
 * piled up without bound. Spacing marks (Devanagari's vowel sign `ि`, say) take their own room
 * and are not counted: the `ज़िं` of `ज़िंदगी` is a letter, a nukta, a vowel sign and a nasal sign.
 */
const STACKED_MARK = /[\p{Mn}\p{Me}]/u;

/** How much of a refused tag an error message repeats. */
const QUOTED_LENGTH = 40;

const quoted = (tag: string) =>
  JSON.stringify(
    [...tag].length > QUOTED_LENGTH ? `${[...tag].slice(0, QUOTED_LENGTH).join('')}…` : tag,
  );

/** The slug of `tag` with every mark it stacks: {@link tagSlug} before marks are counted. */
function stackedSlug(tag: string): string {
  return canonicalIdentifier(withoutDefaultIgnorables(tag))
    .replace(/[\s_\p{Pd}]+/gu, '-')
    .replace(/[^\p{L}\p{M}\p{N}-]+/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .normalize('NFC');
}

/**
 * The most non-spacing marks that one character of `slug` carries, counted decomposed (NFD), so
 * that `é` and `e\u0301` carry the same one.
 */
function mostStackedMarks(slug: string): number {
  let most = 0;
  for (const [run] of slug.normalize('NFD').matchAll(MARK_RUN)) {
    most = Math.max(most, [...run].filter((mark) => STACKED_MARK.test(mark)).length);
  }
  return most;
}

/**
 * `slug` with no more than {@link MAX_STACKED_MARKS} non-spacing marks on any character: the
 * first ones in canonical order are kept.
 */
function cutStackedMarks(slug: string): string {
  return slug
    .normalize('NFD')
    .replace(MARK_RUN, (run) => {
      let stacked = 0;
      const kept = [...run].filter(
        (mark) => !STACKED_MARK.test(mark) || ++stacked <= MAX_STACKED_MARKS,
      );
      return kept.join('');
    })
    .normalize('NFC');
}

/**
 * A tag's slug: Unicode read as handles and emails are (NFKC, lower case, trimmed), without
 * default-ignorable code points (zero-width ones, the Hangul fillers, variation selectors: a tag
 * must not look like another, nor like nothing), spaces, underscores and dashes of any script as
 * `-`, every character but letters (of any script, with their marks), digits and `-` dropped,
 * runs of `-` as one and none at either end, composed (NFC) again, and no more than
 * {@link MAX_STACKED_MARKS} non-spacing marks left on any character. Empty when nothing of the
 * tag is left. {@link tagSlugs} refuses the tags that this cuts; the migration 1765003000000
 * rewrote the slugs stored before with it.
 */
export function tagSlug(tag: string): string {
  return cutStackedMarks(stackedSlug(tag));
}

/**
 * The slugs of `tags`, in their first order, each once: BAD_USER_INPUT (for `field`) naming a
 * tag that holds a lone surrogate, stacks more than {@link MAX_STACKED_MARKS} non-spacing marks
 * on one character, leaves no letter or digit or is longer than {@link MAX_TAG_LENGTH}
 * characters, or when more than {@link MAX_TAGS} distinct slugs are left.
 */
export function tagSlugs(tags: readonly string[], field = 'tags'): string[] {
  const slugs = new Set<string>();
  for (const tag of tags) {
    if (hasLoneSurrogate(tag)) {
      throw badUserInput(`The tag ${quoted(tag)} may not contain lone surrogates.`, field);
    }
    const slug = stackedSlug(tag);
    if (mostStackedMarks(slug) > MAX_STACKED_MARKS) {
      throw badUserInput(
        `The tag ${quoted(tag)} has more than ${MAX_STACKED_MARKS} combining marks on one letter.`,
        field,
      );
    }
    if (!/[\p{L}\p{N}]/u.test(slug)) {
      throw badUserInput(`The tag ${quoted(tag)} has no letter or digit.`, field);
    }
    if ([...slug].length > MAX_TAG_LENGTH) {
      throw badUserInput(
        `The tag ${quoted(tag)} is longer than ${MAX_TAG_LENGTH} characters.`,
        field,
      );
    }
    slugs.add(slug);
    if (slugs.size > MAX_TAGS) {
      throw badUserInput(`At most ${MAX_TAGS} distinct tags are allowed.`, field);
    }
  }
  return [...slugs];
}
