import { FeedService } from './feed.service';
import { FollowsService } from '../follows/follows.service';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

describe('FeedService', () => {
  let blog: BlogTestingModule;
  let feed: FeedService;
  let reader: User;
  let followed: User;
  let stranger: User;
  /** Posts newest first: the reader's, the followed author's and the stranger's, interleaved. */
  let byAge: Post[];

  const ids = (posts: Post[]) => posts.map((post) => post.id);
  const page = (first: number, after: string | null = null) => ({ first, after });

  beforeEach(async () => {
    blog = await createBlogTestingModule([FeedService, FollowsService, PostsService, UsersService]);
    feed = blog.moduleRef.get(FeedService);
    const posts = blog.moduleRef.get(PostsService);
    [reader, followed, stranger] = [await blog.signUp(), await blog.signUp(), await blog.signUp()];
    const authors = [followed, stranger, reader, followed, stranger];
    byAge = [];
    for (const [index, author] of authors.entries()) {
      const post = await posts.create({ input: { title: `Post ${index}`, content: 'C' } }, author);
      await blog.dataSource.query('UPDATE posts SET published_at = ? WHERE id = ?', [
        `2025-01-0${index + 1} 00:00:00.000`,
        post.id,
      ]);
      byAge.unshift(post);
    }
    await posts.create({ input: { title: 'Draft', content: 'C', publish: false } }, followed);
  });

  afterEach(() => blog.close());

  it('should give an anonymous viewer every published post, newest first', async () => {
    expect(ids(await feed.feed(null, page(10)))).toEqual(ids(byAge));
  });

  it('should give a viewer who follows no one every published post', async () => {
    expect(ids(await feed.feed(reader, page(10)))).toEqual(ids(byAge));
  });

  it('should give a follower the posts of those they follow and their own, newest first', async () => {
    await blog.moduleRef.get(FollowsService).follow(followed.id, reader);
    const expected = byAge.filter((post) => post.authorId !== stranger.id);
    expect(ids(await feed.feed(reader, page(10)))).toEqual(ids(expected));
  });

  it('should page the feed after the last post seen, and end with an empty page', async () => {
    await blog.moduleRef.get(FollowsService).follow(followed.id, reader);
    const first = await feed.feed(reader, page(2));
    const second = await feed.feed(reader, page(2, first[1].id));
    const expected = ids(byAge.filter((post) => post.authorId !== stranger.id));
    expect([...ids(first), ...ids(second)]).toEqual(expected);
    expect(await feed.feed(reader, page(2, second[second.length - 1].id))).toEqual([]);
  });

  it('should refuse an after id that is not a published post with BAD_USER_INPUT', async () => {
    await blog.moduleRef.get(FollowsService).follow(followed.id, reader);
    const draft = await blog.moduleRef
      .get(PostsService)
      .create({ input: { title: 'D', content: 'C', publish: false } }, reader);
    expect(await refusalOf(feed.feed(reader, page(2, draft.id)))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'after',
    });
  });
});
