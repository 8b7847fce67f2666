import { LikesService } from './likes.service';
import { newId } from '../common/uuid';
import { Post } from '../posts/post.entity';
import { PostsService } from '../posts/posts.service';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

describe('LikesService', () => {
  let blog: BlogTestingModule;
  let likes: LikesService;
  let posts: PostsService;
  let author: User;
  let reader: User;
  let post: Post;

  const likesOf = async (id: string) => (await likes.countByPosts([id])).get(id) ?? 0;
  const likeEvents = () => blog.events.recorded.filter((event) => event.startsWith('postLikes'));

  beforeEach(async () => {
    blog = await createBlogTestingModule([LikesService, PostsService, UsersService]);
    likes = blog.moduleRef.get(LikesService);
    posts = blog.moduleRef.get(PostsService);
    [author, reader] = [await blog.signUp(), await blog.signUp()];
    post = await posts.create({ input: { title: 'Title', content: 'Content' } }, author);
  });

  afterEach(() => blog.close());

  it('should count a like once, however often it is given, and announce only the change', async () => {
    expect((await likes.like(post.id, reader)).changed).toBe(true);
    expect((await likes.like(post.id, reader)).changed).toBe(false);
    expect(await likesOf(post.id)).toBe(1);
    expect(likeEvents()).toEqual([`postLikesChanged ${post.id}`]);
  });

  it('should take a like back once, and change nothing when there is none', async () => {
    await likes.like(post.id, reader);
    expect((await likes.unlike(post.id, reader)).changed).toBe(true);
    expect((await likes.unlike(post.id, reader)).changed).toBe(false);
    expect(await likesOf(post.id)).toBe(0);
    expect(likeEvents()).toHaveLength(2);
  });

  it('should count the likes of several users, and say which posts a user likes', async () => {
    const other = await posts.create({ input: { title: 'T', content: 'C' } }, author);
    await likes.like(post.id, reader);
    await likes.like(post.id, author);
    expect(await likesOf(post.id)).toBe(2);
    expect(await likesOf(other.id)).toBe(0);
    expect(await likes.likedBy(reader.id, [post.id, other.id])).toEqual(new Set([post.id]));
  });

  it('should refuse an anonymous viewer with UNAUTHENTICATED', async () => {
    expect(await refusalOf(likes.like(post.id, null))).toEqual({ code: 'UNAUTHENTICATED' });
    expect(await refusalOf(likes.unlike(post.id, null))).toEqual({ code: 'UNAUTHENTICATED' });
  });

  it('should refuse a draft or a missing post, and count nothing', async () => {
    const draft = await posts.create(
      { input: { title: 'T', content: 'C', publish: false } },
      author,
    );
    expect(await refusalOf(likes.like(draft.id, reader))).toEqual({ code: 'NOT_FOUND' });
    expect(await refusalOf(likes.like(draft.id, author))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'postId',
    });
    expect(await refusalOf(likes.like(newId(), reader))).toEqual({ code: 'NOT_FOUND' });
    expect(await likesOf(draft.id)).toBe(0);
  });
});
