import { Injectable, Optional } from '@nestjs/common';

import { badUserInput, forbidden, notFound, unauthenticated } from '../common/errors';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { countsByKey, PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { BlogEvents } from '../events/blog-events';
import { NotificationsService } from '../notifications/notifications.service';
import { User } from '../users/user.entity';
import { toAuthor } from '../users/user.rows';
import { UsersService } from '../users/users.service';
import { isAdmin, Viewer } from '../users/viewer';
import { CreatePostArgs, readCreatePostForm } from './dto/create-post.args';
import { UpdatePostInput } from './dto/update-post.input';
import { PostSearchIndex } from './post-search-index';
import { foldedSearchText } from './post-search-text';
import { PostTagsWriter } from './post-tags-writer';
import { Post } from './post.entity';
import { toPost } from './post.rows';
import { PageParameters, postsSql } from './posts.sql';

/** True when `viewer` may see `post`: published posts are public, drafts belong to their author. */
export function canSee(post: Post, viewer: Viewer): boolean {
  return post.publishedAt !== null || post.authorId === viewer?.id || isAdmin(viewer);
}

export interface PostsPage {
  posts: Post[];
  hasNextPage: boolean;
}

/** Which published posts a page holds: one author's, those with all of some tags (slugs), or all. */
export type PostsFilter = { authorId?: string; tags?: readonly string[] } | null;

/** Posts: drafts, publishing, edits, deletion and pages of them. For the host's own code. */
@Injectable()
export class PostsService {
  private readonly statements: PreparedStatements<typeof postsSql>;
  /** SQLite's search index needs the NFKC form of text that has one (see foldedSearchText). */
  private readonly foldsSearchText: boolean;

  constructor(
    private readonly users: UsersService,
    private readonly events: BlogEvents,
    private readonly sql: Sql,
    private readonly searchIndex: PostSearchIndex,
    @Optional() private readonly tags?: PostTagsWriter,
    @Optional() private readonly notifications?: NotificationsService,
  ) {
    this.statements = sql.prepare(postsSql);
    this.foldsSearchText = sql.dialect === 'sqlite';
  }

  async findByIds(ids: readonly string[]): Promise<Post[]> {
    return (await this.sql.all(this.statements.byIds, { ids })).map(toPost);
  }

  /** The post, or null when it does not exist or `viewer` may not see it. */
  async findVisible(id: string, viewer: Viewer): Promise<Post | null> {
    const row = await this.sql.one(this.statements.byId, { id });
    const post = row && toPost(row);
    return post && canSee(post, viewer) ? post : null;
  }

  /** Like {@link findVisible}, with the post's author read by the same statement. */
  async findVisibleWithAuthor(
    id: string,
    viewer: Viewer,
  ): Promise<{ post: Post; author: User } | null> {
    const row = await this.sql.one(this.statements.byIdWithAuthor, { id });
    const post = row && toPost(row);
    return post && canSee(post, viewer) ? { post, author: toAuthor(row) } : null;
  }

  /**
   * A published post that `viewer` may comment on or like: NOT_FOUND when it is missing or
   * hidden, BAD_USER_INPUT when it is the viewer's own draft.
   */
  async findPublished(id: string, viewer: Viewer): Promise<Post> {
    const post = await this.findVisible(id, viewer);
    if (!post) throw notFound('Post');
    if (post.publishedAt === null)
      throw badUserInput('The post is a draft; publish it first.', 'postId');
    return post;
  }

  /** Published posts, newest first (publishedAt, then id): all of them, or those of `filter`. */
  async list(page: Page, filter: PostsFilter = null): Promise<Post[]> {
    const parameters = await this.pageOf(page);
    const after = parameters.afterId !== undefined;
    const { statements: s, sql } = this;
    const { authorId, tags } = filter ?? {};
    if (tags?.length) {
      const statement = authorId
        ? after
          ? s.taggedByAuthorAfter
          : s.taggedByAuthor
        : after
          ? s.taggedAfter
          : s.tagged;
      const tagged = { ...parameters, authorId, tags, tagCount: tags.length };
      return (await sql.all(statement, tagged)).map(toPost);
    }
    const rows = authorId
      ? await sql.all(after ? s.byAuthorAfter : s.byAuthor, { ...parameters, authorId })
      : await sql.all(after ? s.publishedAfter : s.published, parameters);
    return rows.map(toPost);
  }

  /**
   * The page's size, and the publishedAt (as stored) and id of the post that it continues
   * after; none for a first page. A connection cursor carries them; a plain id costs one lookup,
   * and BAD_USER_INPUT when it names no published post (it may have been deleted): an empty page
   * would look like the end of the list.
   */
  async pageOf(page: Page): Promise<PageParameters> {
    if (page.after === null) return { first: page.first };
    if (page.afterPublishedAt) {
      return { first: page.first, afterPublishedAt: page.afterPublishedAt, afterId: page.after };
    }
    const row = await this.sql.one(this.statements.publishedAtOf, { id: page.after });
    if (row?.publishedAt == null) {
      throw badUserInput('after must be the id of a published post of the previous page.', 'after');
    }
    return { first: page.first, afterPublishedAt: row.publishedAt, afterId: page.after };
  }

  /** A page of published posts plus whether more follow, for Relay connections. */
  async listWithNext(page: Page, filter: PostsFilter = null): Promise<PostsPage> {
    const posts = await this.list({ ...page, first: page.first + 1 }, filter);
    return { posts: posts.slice(0, page.first), hasNextPage: posts.length > page.first };
  }

  async countPublished(authorId?: string | null): Promise<number> {
    return this.countMatching(authorId ? { authorId } : null);
  }

  /** The number of published posts that {@link list} pages through for `filter`. */
  async countMatching(filter: PostsFilter): Promise<number> {
    const { authorId, tags } = filter ?? {};
    if (tags?.length) {
      const parameters = { authorId, tags, tagCount: tags.length };
      const statement = authorId
        ? this.statements.countTaggedByAuthor
        : this.statements.countTagged;
      return Number((await this.sql.one(statement, parameters))?.count ?? 0);
    }
    const row = authorId
      ? await this.sql.one(this.statements.countPublishedBy, { authorId })
      : await this.sql.one(this.statements.countPublished, {});
    return Number(row?.count ?? 0);
  }

  /** The viewer's drafts, newest first. */
  async listDrafts(viewer: Viewer, page: Page): Promise<Post[]> {
    if (!viewer) throw unauthenticated('You must be signed in to see your drafts.');
    const parameters = { authorId: viewer.id, first: page.first };
    const rows = page.after
      ? await this.sql.all(this.statements.draftsAfter, { ...parameters, afterId: page.after })
      : await this.sql.all(this.statements.drafts, parameters);
    return rows.map(toPost);
  }

  /**
   * One page of published posts for each author, in one statement whatever the number of
   * authors. Without `content`, the posts are read without theirs (see {@link toPost}): for a
   * selection of FIELDS_WITHOUT_CONTENT alone (see post.rows), whose answer it would not change.
   */
  async listByAuthors(
    authorIds: readonly string[],
    page: Page,
    { content = true } = {},
  ): Promise<Map<string, Post[]>> {
    if (page.first === 0 || authorIds.length === 0) return groupBy(authorIds, [], () => '');
    const parameters = { ...(await this.pageOf(page)), authorIds };
    const s = this.statements;
    const [firstPage, nextPage] = content
      ? [s.pagesByAuthors, s.pagesByAuthorsAfter]
      : [s.summaryPagesByAuthors, s.summaryPagesByAuthorsAfter];
    const statement = parameters.afterId !== undefined ? nextPage : firstPage;
    const posts = (await this.sql.all(statement, parameters)).map(toPost);
    return groupBy(authorIds, posts, (post) => post.authorId);
  }

  /** The number of published posts of each author, in one grouped statement. */
  async countPublishedByAuthors(authorIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countPublishedByAuthors, { authorIds }));
  }

  /** Creates a post in either form of `createPost`; see {@link CreatePostArgs}. */
  async create(args: CreatePostArgs, viewer: Viewer): Promise<Post> {
    const { title, content, authorId, publish, tags } = readCreatePostForm(args);
    const slugs = this.slugsOf(tags, args.input ? 'input.tags' : 'tags');
    if (!viewer) throw unauthenticated('You must be signed in to create a post.');
    if (authorId && authorId !== viewer.id) {
      if (!isAdmin(viewer)) throw forbidden('You may only create posts as yourself.');
      if (!(await this.users.findById(authorId))) {
        throw badUserInput('authorId does not name a user.', 'authorId');
      }
    }
    const now = new Date();
    const post = Object.assign(new Post(), {
      id: newId(),
      title,
      content,
      authorId: authorId ?? viewer.id,
      createdAt: now,
      updatedAt: now,
      publishedAt: publish ? now : null,
    });
    const folded = this.foldsSearchText ? foldedSearchText(post) : null;
    const inserted = async (sql: SqlRunner) => {
      await sql.run(this.statements.insert, post);
      if (folded) await sql.run(this.statements.foldSearchText, { id: post.id, ...folded });
      if (slugs?.length) await this.tags?.replace(sql, post.id, slugs);
      return true;
    };
    if (post.publishedAt && this.notifications) {
      await this.notifications.postPublished(post, inserted);
    } else if (slugs?.length || folded) {
      await this.sql.transaction(inserted);
    } else {
      await inserted(this.sql);
    }
    this.searchIndex.written();
    if (post.publishedAt) await this.events.postPublished(post.id);
    return post;
  }

  /** Changes the fields given; `tags` replaces all of the post's tags (`[]` removes them). */
  async update(id: string, input: UpdatePostInput, viewer: Viewer): Promise<Post> {
    const slugs = this.slugsOf(input.tags, 'input.tags');
    const post = await this.findOwned(id, viewer, 'edit');
    const changes: Partial<Post> = {};
    if (input.title != null) changes.title = input.title;
    if (input.content != null) changes.content = input.content;
    if (Object.keys(changes).length === 0 && slugs === null) return post;
    changes.updatedAt = new Date();
    const update = {
      id,
      title: changes.title ?? null,
      content: changes.content ?? null,
      updatedAt: changes.updatedAt,
    };
    if (slugs === null && !this.foldsSearchText) {
      await this.sql.run(this.statements.update, update);
    } else {
      await this.sql.transaction(async (sql) => {
        const stored = await sql.one(this.statements.update, update);
        // The text as stored: another edit may have changed what this one leaves alone.
        const folded = stored && this.foldsSearchText ? foldedSearchText(stored) : null;
        if (folded) await sql.run(this.statements.foldSearchText, { id, ...folded });
        if (slugs !== null) await this.tags?.replace(sql, id, slugs);
      });
    }
    return Object.assign(post, changes);
  }

  /** The slugs of a `tags` input; null when it is absent or the tags feature is left out. */
  private slugsOf(tags: readonly string[] | null | undefined, field: string): string[] | null {
    return tags == null || !this.tags ? null : this.tags.slugsOf(tags, field);
  }

  /**
   * Publishes a draft; publishing a published post changes nothing. Of concurrent calls, only
   * the one whose conditional update finds the draft publishes it (and its event); the others
   * answer the post as that call stored it.
   */
  async publish(id: string, viewer: Viewer): Promise<{ post: Post; published: boolean }> {
    const post = await this.findOwned(id, viewer, 'publish');
    if (post.publishedAt !== null) return { post, published: false };
    const now = new Date();
    const published = async (sql: SqlRunner) =>
      (await sql.run(this.statements.publish, { id, at: now })) > 0;
    if (!(await (this.notifications?.postPublished(post, published) ?? published(this.sql)))) {
      const stored = await this.sql.one(this.statements.byId, { id });
      if (!stored) throw notFound('Post');
      return { post: toPost(stored), published: false };
    }
    await this.events.postPublished(id);
    return { post: Object.assign(post, { publishedAt: now, updatedAt: now }), published: true };
  }

  /** Deletes a post; the schema's `ON DELETE CASCADE` removes its comments and likes with it. */
  async delete(id: string, viewer: Viewer): Promise<string> {
    await this.findOwned(id, viewer, 'delete');
    await this.sql.run(this.statements.delete, { id });
    return id;
  }

  /** The post if `viewer` may change it: its author or an admin. */
  private async findOwned(id: string, viewer: Viewer, action: string): Promise<Post> {
    if (!viewer) throw unauthenticated(`You must be signed in to ${action} a post.`);
    const post = await this.findVisible(id, viewer);
    if (!post) throw notFound('Post');
    if (post.authorId !== viewer.id && !isAdmin(viewer)) {
      throw forbidden(`Only the author of a post may ${action} it.`);
    }
    return post;
  }
}
