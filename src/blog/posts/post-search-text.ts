/** A post's text as the search index reads it. */
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
  const titleFolded = title.normalize('NFKC');
  const contentFolded = content.normalize('NFKC');
  if (titleFolded === title && contentFolded === content) return null;
  return {
    titleFolded: titleFolded === title ? null : titleFolded,
    contentFolded: contentFolded === content ? null : contentFolded,
  };
}
