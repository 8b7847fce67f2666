import { GraphQLError } from 'graphql';

import { FeedService } from './feed.service';
import { Page } from '../common/pagination';
import { FollowsService } from '../follows/follows.service';
import { PostsService } from '../posts/posts.service';
import { BlogTestingModule, createBlogTestingModule } from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

const page = (first: number, after: string | null = null): Page => ({ first, after });

describe('FeedService', () => {
  let blog: BlogTestingModule;
  let feed: FeedService;
  let ann: User;
  let ben: User;
  let cat: User;
  const titles: Record<string, string> = {};

  async function user(handle: string): Promise<User> {
    return blog.moduleRef.get(UsersService).create({
      name: handle,
      email: `${handle}@example.com`,
      handle,
      passwordHash: 'not checked here',
    });
  }

  /** A post by `author`, published at `publishedAt` unless it is a draft. */
  async function post(author: User, title: string, publishedAt: string | null): Promise<void> {
    const created = await blog.moduleRef
      .get(PostsService)
      .create({ input: { title, content: 'text', publish: publishedAt !== null } }, author);
    titles[created.id] = title;
    if (publishedAt) {
      await blog.dataSource.query('UPDATE posts SET published_at = ? WHERE id = ?', [
        publishedAt,
        created.id,
      ]);
    }
  }

  const feedOf = async (viewer: User | null, of = page(20)) =>
    (await feed.feed(viewer, of)).map((p) => titles[p.id]);

  beforeEach(async () => {
    blog = await createBlogTestingModule([FeedService, PostsService, FollowsService, UsersService]);
    feed = blog.moduleRef.get(FeedService);
    [ann, ben, cat] = [await user('ann'), await user('ben'), await user('cat')];
    await post(ann, 'ann 1', '2026-01-01 10:00:00.000');
    await post(ben, 'ben 1', '2026-01-02 10:00:00.000');
    await post(cat, 'cat 1', '2026-01-03 10:00:00.000');
    await post(ann, 'ann 2', '2026-01-04 10:00:00.000');
    await post(ben, 'ben draft', null);
    await blog.moduleRef.get(FollowsService).follow(ben.id, ann);
  });

  afterEach(() => blog.close());

  it("should list the viewer's posts and those of the authors they follow, newest first", async () => {
    expect(await feedOf(ann)).toEqual(['ann 2', 'ben 1', 'ann 1']);
  });

  it('should list every published post for an anonymous viewer and one who follows no one', async () => {
    const all = ['ann 2', 'cat 1', 'ben 1', 'ann 1'];
    expect(await feedOf(null)).toEqual(all);
    expect(await feedOf(cat)).toEqual(all);
  });

  it('should go on after the last post of the previous page', async () => {
    const first = await feed.feed(ann, page(2));
    expect(first.map((p) => titles[p.id])).toEqual(['ann 2', 'ben 1']);
    expect(await feedOf(ann, page(2, first[1].id))).toEqual(['ann 1']);
  });

  it('should refuse as BAD_USER_INPUT on after a page after a post that is not published', async () => {
    const draft = Object.keys(titles).find((id) => titles[id] === 'ben draft') ?? '';
    const error = await feed.feed(ann, page(2, draft)).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(GraphQLError);
    expect((error as GraphQLError).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'after',
    });
  });
});
