import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { Comment } from '../comments/comment.entity';
import { badUserInput, forbidden, notFound, unauthenticated } from '../common/errors';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { countsByKey, Sql } from '../common/sql';
import { newId } from '../common/uuid';
import { BlogEvents } from '../events/blog-events';
import { Like } from '../likes/like.entity';
import { UsersService } from '../users/users.service';
import { isAdmin, Viewer } from '../users/viewer';
import { CreatePostArgs } from './dto/create-post.args';
import { UpdatePostInput } from './dto/update-post.input';
import { Post } from './post.entity';
import { postColumns, PostRow, toPost } from './post.rows';

/** True when `viewer` may see `post`: published posts are public, drafts belong to their author. */
export function canSee(post: Post, viewer: Viewer): boolean {
  return post.publishedAt !== null || post.authorId === viewer?.id || isAdmin(viewer);
}

export interface PostsPage {
  posts: Post[];
  hasNextPage: boolean;
}

/** Which published posts a page holds. */
export type PostsFilter = { authorId: string } | { feedOf: string } | null;

const NEWEST_FIRST = 'ORDER BY p.published_at DESC, p.id DESC';
/**
 * Keeps the rows of `p` that come after the cursor, given as two parameters: its publishedAt as
 * stored and its id. Written as a row value, it bounds the scan of the (…, published_at, id)
 * indexes; the same test as an OR of the two columns makes them read every older row.
 */
const afterCursor = (after: boolean, p = 'p') =>
  after ? ` AND (${p}.published_at, ${p}.id) < (?, ?)` : '';

function statements(sql: Sql) {
  const cols = postColumns('p');
  const published = (filter: string, after: boolean) =>
    sql.statement(
      `SELECT ${cols} FROM posts p ` +
        `WHERE p.published_at IS NOT NULL${filter}${afterCursor(after)} ${NEWEST_FIRST} LIMIT ?`,
    );
  /**
   * A page of each author's posts (`authors` is a one-column table, `value`). The page's ids come
   * from the (author, publishedAt, id) index alone, with a LIMIT per author (a correlated
   * subquery on SQLite, LATERAL on PostgreSQL), and only those rows are read: the cost follows
   * authors × page size, not how many posts they have.
   */
  const pagePerAuthor = (after: boolean) => {
    const ids =
      'SELECT x.id FROM posts x ' +
      `WHERE x.author_id = a.value AND x.published_at IS NOT NULL${afterCursor(after, 'x')} ` +
      'ORDER BY x.published_at DESC, x.id DESC LIMIT ?';
    return sql.statement({
      sqlite: `SELECT ${cols} FROM KEYS a JOIN posts p ON p.id IN (${ids}) ${NEWEST_FIRST}`,
      postgres: `SELECT ${cols} FROM KEYS a CROSS JOIN LATERAL (${ids}) t JOIN posts p ON p.id = t.id ${NEWEST_FIRST}`,
    });
  };
  /**
   * The feed: the newest posts of the viewer and the authors they follow. The page's ids come
   * from the (author, publishedAt, id) index alone (on PostgreSQL a page per author, merged), and
   * only those rows are read.
   */
  const feed = (after: boolean) => {
    const authors =
      '(SELECT CAST(? AS varchar(36)) AS value UNION SELECT f.followee_id FROM follows f WHERE f.follower_id = ?) a';
    const newest = 'ORDER BY x.published_at DESC, x.id DESC LIMIT ?';
    const keep = `x.published_at IS NOT NULL${afterCursor(after, 'x')}`;
    return sql.statement({
      sqlite:
        `SELECT ${cols} FROM posts p WHERE p.id IN (SELECT x.id FROM ${authors} ` +
        `JOIN posts x ON x.author_id = a.value AND ${keep} ${newest}) ${NEWEST_FIRST}`,
      postgres:
        `SELECT ${cols} FROM posts p WHERE p.id IN (SELECT t.id FROM ${authors} CROSS JOIN LATERAL ` +
        `(SELECT x.id, x.published_at FROM posts x WHERE x.author_id = a.value AND ${keep} ${newest}) t ` +
        `ORDER BY t.published_at DESC, t.id DESC LIMIT ?) ${NEWEST_FIRST}`,
    });
  };
  const byAuthor = ' AND p.author_id = ?';
  return {
    insert: sql.statement(
      'INSERT INTO posts (id, title, content, author_id, created_at, updated_at, published_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    byId: sql.statement(`SELECT ${cols} FROM posts p WHERE p.id = ?`),
    byIds: sql.statement(`SELECT ${cols} FROM posts p WHERE p.id IN (??)`),
    publishedAtOf: sql.statement(
      'SELECT p.published_at AS "publishedAt" FROM posts p WHERE p.id = ?',
    ),
    publish: sql.statement(
      'UPDATE posts SET published_at = ?, updated_at = ? WHERE id = ? AND published_at IS NULL',
    ),
    all: [published('', false), published('', true)],
    byAuthor: [published(byAuthor, false), published(byAuthor, true)],
    feed: [feed(false), feed(true)],
    rankedByAuthors: [pagePerAuthor(false), pagePerAuthor(true)],
    countByAuthors: sql.statement(
      'SELECT p.author_id AS key, COUNT(*) AS count FROM posts p ' +
        'WHERE p.author_id IN (??) AND p.published_at IS NOT NULL GROUP BY p.author_id',
    ),
  };
}

@Injectable()
export class PostsService {
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    @InjectRepository(Post) private readonly posts: Repository<Post>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly events: BlogEvents,
    private readonly sql: Sql,
  ) {
    this.statements = statements(sql);
  }

  async findByIds(ids: readonly string[]): Promise<Post[]> {
    return (await this.sql.all<PostRow>(this.statements.byIds, [this.sql.keys(ids)])).map(toPost);
  }

  /** The post, or null when it does not exist or `viewer` may not see it. */
  async findVisible(id: string, viewer: Viewer): Promise<Post | null> {
    const row = await this.sql.one<PostRow>(this.statements.byId, [id]);
    const post = row && toPost(row);
    return post && canSee(post, viewer) ? post : null;
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

  /**
   * Published posts, newest first (publishedAt, then id): all of them, one author's, or the
   * feed of a viewer (the authors they follow and their own).
   */
  async list(page: Page, filter: PostsFilter = null): Promise<Post[]> {
    const cursor = await this.cursorOf(page);
    const after = cursor.length > 0 ? 1 : 0;
    const [statement, parameters] =
      filter === null
        ? [this.statements.all[after], [...cursor, page.first]]
        : 'authorId' in filter
          ? [this.statements.byAuthor[after], [filter.authorId, ...cursor, page.first]]
          : [this.statements.feed[after], this.feedParameters(filter.feedOf, cursor, page.first)];
    return (await this.sql.all<PostRow>(statement, parameters)).map(toPost);
  }

  private feedParameters(viewerId: string, cursor: unknown[], first: number): unknown[] {
    const page = this.sql.postgres ? [first, first] : [first];
    return [viewerId, viewerId, ...cursor, ...page];
  }

  /**
   * The parameters of `afterCursor`: the publishedAt (as stored) and id of the post that the
   * page continues after; none for a first page. A connection cursor carries them; a plain id
   * costs one lookup, and BAD_USER_INPUT when it names no published post (it may have been
   * deleted): an empty page would look like the end of the list.
   */
  private async cursorOf(page: Page): Promise<unknown[]> {
    if (page.after === null) return [];
    if (page.afterPublishedAt) return [this.sql.timestamp(page.afterPublishedAt), page.after];
    const row = await this.sql.one<{ publishedAt: Date | string | null }>(
      this.statements.publishedAtOf,
      [page.after],
    );
    if (row?.publishedAt == null) {
      throw badUserInput('after must be the id of a published post of the previous page.', 'after');
    }
    return [row.publishedAt, page.after];
  }

  /** A page of published posts plus whether more follow, for Relay connections. */
  async listWithNext(page: Page, filter: PostsFilter = null): Promise<PostsPage> {
    const posts = await this.list({ ...page, first: page.first + 1 }, filter);
    return { posts: posts.slice(0, page.first), hasNextPage: posts.length > page.first };
  }

  countPublished(authorId?: string | null): Promise<number> {
    const query = this.posts.createQueryBuilder('post').where('post.publishedAt IS NOT NULL');
    if (authorId) query.andWhere('post.authorId = :authorId', { authorId });
    return query.getCount();
  }

  /** The viewer's drafts, newest first. */
  listDrafts(viewer: Viewer, page: Page): Promise<Post[]> {
    if (!viewer) throw unauthenticated('You must be signed in to see your drafts.');
    const query = this.posts
      .createQueryBuilder('post')
      .where('post.authorId = :authorId', { authorId: viewer.id })
      .andWhere('post.publishedAt IS NULL');
    if (page.after) query.andWhere('post.id < :after', { after: page.after });
    return query.orderBy('post.id', 'DESC').take(page.first).getMany();
  }

  /** One page of published posts for each author, in one statement whatever the number of authors. */
  async listByAuthors(authorIds: readonly string[], page: Page): Promise<Map<string, Post[]>> {
    if (page.first === 0 || authorIds.length === 0) return groupBy(authorIds, [], () => '');
    const cursor = await this.cursorOf(page);
    const statement = this.statements.rankedByAuthors[cursor.length > 0 ? 1 : 0];
    const parameters = [this.sql.keys(authorIds), ...cursor, page.first];
    const posts = (await this.sql.all<PostRow>(statement, parameters)).map(toPost);
    return groupBy(authorIds, posts, (post) => post.authorId);
  }

  /** The number of published posts of each author, in one grouped statement. */
  async countPublishedByAuthors(authorIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(
      await this.sql.all(this.statements.countByAuthors, [this.sql.keys(authorIds)]),
    );
  }

  /** Creates a post in either form of `createPost`; see {@link CreatePostArgs}. */
  async create(args: CreatePostArgs, viewer: Viewer): Promise<Post> {
    const { title, content, authorId, publish } = this.readCreateForm(args);
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
    const at = this.sql.timestamp(now);
    await this.sql.run(this.statements.insert, [
      post.id,
      title,
      content,
      post.authorId,
      at,
      at,
      publish ? at : null,
    ]);
    if (post.publishedAt) await this.events.postPublished(post.id);
    return post;
  }

  async update(id: string, input: UpdatePostInput, viewer: Viewer): Promise<Post> {
    const post = await this.findOwned(id, viewer, 'edit');
    const changes: Partial<Post> = {};
    if (input.title != null) changes.title = input.title;
    if (input.content != null) changes.content = input.content;
    if (Object.keys(changes).length === 0) return post;
    changes.updatedAt = new Date();
    await this.posts.update({ id }, changes);
    return Object.assign(post, changes);
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
    const at = this.sql.timestamp(now);
    if ((await this.sql.run(this.statements.publish, [at, at, id])) === 0) {
      const stored = await this.sql.one<PostRow>(this.statements.byId, [id]);
      if (!stored) throw notFound('Post');
      return { post: toPost(stored), published: false };
    }
    await this.events.postPublished(id);
    return { post: Object.assign(post, { publishedAt: now, updatedAt: now }), published: true };
  }

  /** Deletes a post with its comments and likes, all or nothing. */
  async delete(id: string, viewer: Viewer): Promise<string> {
    await this.findOwned(id, viewer, 'delete');
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(Comment, { postId: id });
      await manager.delete(Like, { postId: id });
      await manager.delete(Post, { id });
    });
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

  private readCreateForm(args: CreatePostArgs) {
    const flat = args.title != null || args.content != null || args.authorId != null;
    if (args.input && flat) {
      throw badUserInput('Use either input or title/content/authorId, not both.', 'input');
    }
    if (args.input) return { ...args.input, authorId: null, publish: args.input.publish ?? true };
    if (!flat) throw badUserInput('createPost needs input, or title and content.', 'input');
    if (args.title == null) throw badUserInput('title is required.', 'title');
    if (args.content == null) throw badUserInput('content is required.', 'content');
    return { title: args.title, content: args.content, authorId: args.authorId, publish: true };
  }
}
