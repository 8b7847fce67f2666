import { badUserInput } from '../common/errors';
import { canonicalIdentifier } from '../users/user-identifiers';

/** The most tags a post has, and the most a filter names. */
export const MAX_TAGS = 5;
/** The longest slug, in characters. */
export const MAX_TAG_LENGTH = 64;

/** How much of a refused tag an error message repeats. */
const QUOTED_LENGTH = 40;

const quoted = (tag: string) =>
  JSON.stringify(
    [...tag].length > QUOTED_LENGTH ? `${[...tag].slice(0, QUOTED_LENGTH).join('')}…` : tag,
  );

/**
 * A tag's slug: Unicode read as handles and emails are (NFKC, lower case, trimmed), spaces,
 * underscores and dashes of any script as `-`, every character but letters (of any script, with
 * their marks), digits and `-` dropped, runs of `-` as one and none at either end. Empty when
 * nothing of the tag is left.
 */
export function tagSlug(tag: string): string {
  return canonicalIdentifier(tag)
    .replace(/[\s_\p{Pd}]+/gu, '-')
    .replace(/[^\p{L}\p{M}\p{N}-]+/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The slugs of `tags`, in their first order, each once: BAD_USER_INPUT (for `field`) naming a
 * tag that leaves no letter or digit or is longer than {@link MAX_TAG_LENGTH} characters, or
 * when more than {@link MAX_TAGS} distinct slugs are left.
 */
export function tagSlugs(tags: readonly string[], field = 'tags'): string[] {
  const slugs = new Set<string>();
  for (const tag of tags) {
    const slug = tagSlug(tag);
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
