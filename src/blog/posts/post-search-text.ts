/**
 * A post's text as the search index reads it: its title, and as `content` the plain text of its
 * content (`content_text`, rendered from the Markdown on write), or the Markdown itself for a
 * post that has none, such as one another client wrote (migration 1765006000000).
 */
export interface PostText {
  title: string;
  content: string;
}

/** The NFKC forms of a post's text that differ from it, null where they do not. */
export interface FoldedSearchText {
  titleFolded: string | null;
  contentFolded: string | null;
}

/**
 * What SQLite's search index reads instead of a post's own text (see the migration
 * 1765000400000): the NFKC form of the title and of the content, where it differs from the text,
 * so that fullwidth `ｇｒａｐｈ` or the ligature `ﬁ` are found by their plain letters, as on
 * PostgreSQL. Null when the text has no compatibility form, as most text has not.
 */
export function foldedSearchText({ title, content }: PostText): FoldedSearchText | null {
  const titleFolded = foldedText(title);
  const contentFolded = foldedText(content);
  return titleFolded === null && contentFolded === null ? null : { titleFolded, contentFolded };
}

/** The NFKC form of `text`, or null where it is the same (see {@link foldedSearchText}). */
export function foldedText(text: string): string | null {
  const folded = text.normalize('NFKC');
  return folded === text ? null : folded;
}

/**
 * How much of a post's text (see {@link PostText}) the search index reads: its first 5,000
 * characters (Unicode code points, as SQLite's `substr` and PostgreSQL's `left` count them), about
 * 800 words. A word past them is not found, and a search ranks and marks only what they hold, so
 * that the work of a search over a post is bounded whatever the post holds (contents run to 50,000
 * characters). The title is read whole. The migrations 1765000950000 and 1765006000000 wrote this
 * length into both databases' indexes: another length needs a migration of its own.
 */
export const SEARCHED_CONTENT_LENGTH = 5_000;

/**
 * The part of a post's text (see {@link PostText}) that the search index reads: its first
 * {@link SEARCHED_CONTENT_LENGTH} code points.
 */
export function searchedContent(content: string): string {
  // A code point takes one or two UTF-16 units: a text this short in units is short enough.
  if (content.length <= SEARCHED_CONTENT_LENGTH) return content;
  let units = 0;
  for (let points = 0; points < SEARCHED_CONTENT_LENGTH && units < content.length; points++) {
    units += (content.codePointAt(units) as number) > 0xffff ? 2 : 1;
  }
  return content.slice(0, units);
}
