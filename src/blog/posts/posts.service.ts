import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Brackets, DataSource, In, Repository, SelectQueryBuilder } from 'typeorm';
import { Comment } from '../comments/comment.entity';
import { BlogEvents } from '../events/blog-events';
import { isAdmin, Viewer } from '../common/blog-context';
import { badUserInput, forbidden, notFound, unauthenticated } from '../common/errors';
import { countGroupedBy, firstPerGroup, groupBy } from '../common/grouped-queries';
import { Page } from '../common/pagination';
import { Like } from '../likes/like.entity';
import { UsersService } from '../users/users.service';
import { CreatePostArgs } from './dto/create-post.args';
import { UpdatePostInput } from './dto/update-post.input';
import { Post } from './post.entity';

/** True when `viewer` may see `post`: published posts are public, drafts belong to their author. */
export function canSee(post: Post, viewer: Viewer): boolean {
  return post.publishedAt !== null || post.authorId === viewer?.id || isAdmin(viewer);
}

export interface PostsPage {
  posts: Post[];
  hasNextPage: boolean;
}

@Injectable()
export class PostsService {
  constructor(
    @InjectRepository(Post) private readonly posts: Repository<Post>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly events: BlogEvents,
  ) {}

  findByIds(ids: readonly string[]): Promise<Post[]> {
    return this.posts.findBy({ id: In([...ids]) });
  }

  /** The post, or null when it does not exist or `viewer` may not see it. */
  async findVisible(id: string, viewer: Viewer): Promise<Post | null> {
    const post = await this.posts.findOneBy({ id });
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

  /** Published posts, newest first, optionally by one author. */
  list(page: Page, authorId?: string | null): Promise<Post[]> {
    const query = this.publishedQuery(page.after);
    if (authorId) query.andWhere('post.authorId = :authorId', { authorId });
    return query.take(page.first).getMany();
  }

  /** A page of published posts plus whether more follow, for Relay connections. */
  async listWithNext(page: Page, authorId?: string | null): Promise<PostsPage> {
    const posts = await this.list({ ...page, first: page.first + 1 }, authorId);
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
    const posts = await firstPerGroup({
      candidates: this.publishedQuery(page.after, 'ranked').andWhere(
        'ranked.authorId IN (:...authorIds)',
        {
          authorIds: [...authorIds],
        },
      ),
      partitionBy: 'ranked.author_id',
      orderWithinGroup: 'ranked.published_at DESC, ranked.id DESC',
      first: page.first,
      load: this.newestFirst(this.posts.createQueryBuilder('row')),
    });
    return groupBy(authorIds, posts, (post) => post.authorId);
  }

  /** The number of published posts of each author, in one grouped statement. */
  countPublishedByAuthors(authorIds: readonly string[]): Promise<Map<string, number>> {
    return countGroupedBy(this.posts, 'authorId', authorIds, (query) =>
      query.andWhere('row.publishedAt IS NOT NULL'),
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
    const post = this.posts.create({
      title,
      content,
      authorId: authorId ?? viewer.id,
      createdAt: now,
      updatedAt: now,
      publishedAt: publish ? now : null,
    });
    await this.posts.insert(post);
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

  /** Publishes a draft; publishing a published post changes nothing. */
  async publish(id: string, viewer: Viewer): Promise<{ post: Post; published: boolean }> {
    const post = await this.findOwned(id, viewer, 'publish');
    if (post.publishedAt !== null) return { post, published: false };
    const now = new Date();
    await this.posts.update({ id }, { publishedAt: now, updatedAt: now });
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

  /**
   * Published posts, newest first (publishedAt, then id), after the post `after` if given.
   * The cursor post is looked up inside the statement.
   */
  publishedQuery(after: string | null, alias = 'post'): SelectQueryBuilder<Post> {
    const query = this.posts.createQueryBuilder(alias).where(`${alias}.publishedAt IS NOT NULL`);
    if (after) {
      const cursor = `(SELECT c.published_at FROM posts c WHERE c.id = :after)`;
      query.andWhere(
        new Brackets((qb) =>
          qb
            .where(`${alias}.publishedAt < ${cursor}`)
            .orWhere(`${alias}.publishedAt = ${cursor} AND ${alias}.id < :after`),
        ),
        { after },
      );
    }
    return this.newestFirst(query);
  }

  private newestFirst(query: SelectQueryBuilder<Post>): SelectQueryBuilder<Post> {
    const alias = query.alias;
    return query.orderBy(`${alias}.publishedAt`, 'DESC').addOrderBy(`${alias}.id`, 'DESC');
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
