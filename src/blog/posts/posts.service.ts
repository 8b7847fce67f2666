import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, In, Repository, SelectQueryBuilder } from 'typeorm';
import { badUserInput, forbidden, unauthenticated } from '../common/errors';
import { Page } from '../common/pagination';
import { isAdmin, Viewer } from '../common/blog-context';
import { UsersService } from '../users/users.service';
import { CreatePostArgs } from './dto/create-post.args';
import { Post } from './post.entity';

/** True when `viewer` may see `post`: published posts are public, drafts belong to their author. */
export function canSee(post: Post, viewer: Viewer): boolean {
  return post.publishedAt !== null || post.authorId === viewer?.id || isAdmin(viewer);
}

@Injectable()
export class PostsService {
  constructor(
    @InjectRepository(Post) private readonly posts: Repository<Post>,
    private readonly users: UsersService,
  ) {}

  findByIds(ids: readonly string[]): Promise<Post[]> {
    return this.posts.findBy({ id: In([...ids]) });
  }

  /** The post, or null when it does not exist or `viewer` may not see it. */
  async findVisible(id: string, viewer: Viewer): Promise<Post | null> {
    const post = await this.posts.findOneBy({ id });
    return post && canSee(post, viewer) ? post : null;
  }

  /** Published posts, newest first, optionally by one author. */
  list(page: Page, authorId?: string | null): Promise<Post[]> {
    const query = this.publishedAfter(page.after);
    if (authorId) query.andWhere('post.authorId = :authorId', { authorId });
    return this.newestFirst(query).take(page.first).getMany();
  }

  /**
   * One page of published posts for each author in one statement: the posts are ranked per
   * author and cut at `page.first`, so the cost does not grow with the number of authors.
   */
  async listByAuthors(authorIds: readonly string[], page: Page): Promise<Map<string, Post[]>> {
    const byAuthor = new Map<string, Post[]>(authorIds.map((id) => [id, []]));
    if (page.first === 0 || authorIds.length === 0) return byAuthor;
    const ranked = this.publishedAfter(page.after, 'ranked')
      .select('ranked.id', 'id')
      .addSelect(
        'ROW_NUMBER() OVER (PARTITION BY ranked.author_id ORDER BY ranked.published_at DESC, ranked.id DESC)',
        'rn',
      )
      .andWhere('ranked.authorId IN (:...authorIds)', { authorIds: [...authorIds] });
    const posts = await this.newestFirst(this.posts.createQueryBuilder('post'))
      .where(`post.id IN (SELECT r.id FROM (${ranked.getQuery()}) r WHERE r.rn <= :first)`)
      .setParameters({ ...ranked.getParameters(), first: page.first })
      .getMany();
    for (const post of posts) byAuthor.get(post.authorId)?.push(post);
    return byAuthor;
  }

  /** The number of published posts of each author, in one grouped statement. */
  async countPublishedByAuthors(authorIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.posts
      .createQueryBuilder('post')
      .select('post.authorId', 'authorId')
      .addSelect('COUNT(*)', 'count')
      .where('post.authorId IN (:...authorIds)', { authorIds: [...authorIds] })
      .andWhere('post.publishedAt IS NOT NULL')
      .groupBy('post.authorId')
      .getRawMany<{ authorId: string; count: string | number }>();
    return new Map(rows.map((row) => [row.authorId, Number(row.count)]));
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

  private publishedAfter(after: string | null, alias = 'post'): SelectQueryBuilder<Post> {
    const query = this.posts.createQueryBuilder(alias).where(`${alias}.publishedAt IS NOT NULL`);
    if (!after) return query;
    const cursor = `(SELECT c.published_at FROM posts c WHERE c.id = :after)`;
    return query.andWhere(
      new Brackets((qb) =>
        qb
          .where(`${alias}.publishedAt < ${cursor}`)
          .orWhere(`${alias}.publishedAt = ${cursor} AND ${alias}.id < :after`),
      ),
      { after },
    );
  }

  private newestFirst(query: SelectQueryBuilder<Post>): SelectQueryBuilder<Post> {
    const alias = query.alias;
    return query.orderBy(`${alias}.publishedAt`, 'DESC').addOrderBy(`${alias}.id`, 'DESC');
  }
}
