import { SqlRunner } from '../common/sql';

/**
 * Writes the tags of a post in the post's own transaction. The tags feature provides it; without
 * that feature, posts have no tags and `tags` inputs (absent from the schema then) are ignored.
 */
export abstract class PostTagsWriter {
  /** The slugs to store for `tags`; BAD_USER_INPUT for `field` when they break the tag rules. */
  abstract slugsOf(tags: readonly string[], field: string): string[];
  /** Replaces the tags of `postId` with `slugs`, in this order, through `sql`. */
  abstract replace(sql: SqlRunner, postId: string, slugs: readonly string[]): Promise<void>;
}
