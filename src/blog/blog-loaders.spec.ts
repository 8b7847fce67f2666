import DataLoader from 'dataloader';

import { BlogLoadersFactory } from './blog-loaders';
import { commentsLoaders } from './comments/comments.loaders';
import { CommentsService } from './comments/comments.service';
import { LoaderCache } from './common/loaders';
import { followsLoaders } from './follows/follows.loaders';
import { FollowsService } from './follows/follows.service';
import { likesLoaders } from './likes/likes.loaders';
import { LikesService } from './likes/likes.service';
import { Post } from './posts/post.entity';
import { postsLoaders } from './posts/posts.loaders';
import { PostsService } from './posts/posts.service';
import { User } from './users/user.entity';
import { usersLoaders } from './users/users.loaders';
import { UsersService } from './users/users.service';

function factory() {
  const findByIds = jest.fn(async (ids: readonly string[]) =>
    ids.map((id) => Object.assign(new User(), { id, name: `read ${id}` })),
  );
  const findPostsByIds = jest.fn(async (ids: readonly string[]) =>
    ids.map((id) => Object.assign(new Post(), { id, title: `read ${id}` })),
  );
  const countByPosts = jest.fn(async (ids: readonly string[]) => new Map(ids.map((id) => [id, 3])));
  const made = new BlogLoadersFactory(
    { findByIds } as unknown as UsersService,
    { findByIds: findPostsByIds } as unknown as PostsService,
    {} as CommentsService,
    { countByPosts } as unknown as LikesService,
    {} as FollowsService,
  );
  return { made, findByIds, findPostsByIds, countByPosts };
}

describe('BlogLoadersFactory', () => {
  it("should give each request every feature's loaders, made once per request", async () => {
    const { made, findByIds, countByPosts } = factory();
    const loaders = made.create(null);
    expect(loaders.userById).toBeInstanceOf(DataLoader);
    expect(loaders.userById).toBe(loaders.userById);
    expect(made.create(null).userById).not.toBe(loaders.userById);

    const [a, b] = await Promise.all([loaders.userById.load('a'), loaders.userById.load('b')]);
    expect([a?.name, b?.name]).toEqual(['read a', 'read b']);
    expect(findByIds).toHaveBeenCalledTimes(1);
    expect(await loaders.likesCountByPost.load('p')).toBe(3);
    expect(countByPosts).toHaveBeenCalledWith(['p']);
  });

  it('should answer primed rows without reading them, until clear()', async () => {
    const { made, findByIds } = factory();
    const loaders = made.create(null);
    const known = Object.assign(new User(), { id: 'k', name: 'known' });
    expect(loaders.knownUsers([known])).toEqual([known]);
    expect(await loaders.userById.load('k')).toBe(known);
    expect(findByIds).not.toHaveBeenCalled();

    loaders.clear();
    expect((await loaders.userById.load('k'))?.name).toBe('read k');
    expect(findByIds).toHaveBeenCalledTimes(1);
  });

  it('should answer the posts of the lists already read without reading them, until clear()', async () => {
    const { made, findPostsByIds } = factory();
    const loaders = made.create(null);
    const first = Object.assign(new Post(), { id: 'p', title: 'listed first' });
    const again = Object.assign(new Post(), { id: 'p', title: 'listed again' });
    expect(loaders.knownPosts([first])).toEqual([first]);
    expect(await loaders.postById.load('p')).toBe(first);
    // As DataLoader's prime: a post known already keeps its first row.
    loaders.knownPosts([again]);
    expect(await loaders.postById.load('p')).toBe(first);
    expect(findPostsByIds).not.toHaveBeenCalled();

    loaders.knownPosts([again]);
    loaders.clear();
    expect((await loaders.postById.load('p'))?.title).toBe('read p');
    expect(findPostsByIds).toHaveBeenCalledTimes(1);
  });

  it('should prime what a mutation knows into the fresh loaders, once, after the next clear()', async () => {
    const { made, countByPosts } = factory();
    const loaders = made.create(null);
    const prime = jest.fn(() => loaders.likesCountByPost.prime('p', 7));
    expect(await loaders.likesCountByPost.load('p')).toBe(3);
    loaders.primeAfterClear(prime);
    expect(prime).not.toHaveBeenCalled();
    expect(await loaders.likesCountByPost.load('p')).toBe(3);

    loaders.clear();
    expect(prime).toHaveBeenCalledTimes(1);
    expect(await loaders.likesCountByPost.load('p')).toBe(7);
    expect(countByPosts).toHaveBeenCalledTimes(1);

    // Forgotten once run: the next mutation's clear() reads afresh.
    loaders.clear();
    expect(await loaders.likesCountByPost.load('p')).toBe(3);
    expect(prime).toHaveBeenCalledTimes(1);
    expect(countByPosts).toHaveBeenCalledTimes(2);
  });

  it("should make each feature's loaders a class instance, without getters of its own", () => {
    // An object literal with getters gets a hidden class of its own in V8, which keeps what the
    // getters reach (the request's rows) alive through young-generation collections.
    const cache = new LoaderCache();
    const features = [
      usersLoaders({} as UsersService, cache, null),
      postsLoaders({} as PostsService, cache),
      commentsLoaders({} as CommentsService, cache, null),
      likesLoaders({} as LikesService, cache, null),
      followsLoaders({} as FollowsService, cache, null),
    ];
    for (const loaders of features) {
      const own = Object.values(Object.getOwnPropertyDescriptors(loaders));
      expect(own.filter((descriptor) => descriptor.get || descriptor.set)).toEqual([]);
      expect(Object.getPrototypeOf(loaders)).not.toBe(Object.prototype);
    }
  });

  it("should make an optional feature's loader once per request, with its viewer, until clear()", () => {
    const { made } = factory();
    const viewer = Object.assign(new User(), { id: 'v' });
    const loaders = made.create(viewer);
    const make = jest.fn((who: User | null) => ({ viewerId: who?.id }));
    const loader = loaders.featureLoader('flags', make);
    expect(loader).toEqual({ viewerId: 'v' });
    expect(loaders.featureLoader('flags', make)).toBe(loader);
    expect(made.create(null).featureLoader('flags', make)).toEqual({ viewerId: undefined });

    loaders.clear();
    expect(loaders.featureLoader('flags', make)).not.toBe(loader);
    expect(make).toHaveBeenCalledTimes(3);
  });

  it('should hold a user exactly as userById answers it, once it is primed or read', async () => {
    const { made, findByIds } = factory();
    const viewer = Object.assign(new User(), { id: 'v', name: 'viewer' });
    const loaders = made.create(viewer);
    const listed = Object.assign(new User(), { id: 'k', name: 'listed' });
    expect(loaders.knownUser('k')).toBeUndefined();
    loaders.knownUsers([listed]);
    expect(loaders.knownUser('k')).toBe(listed);
    expect(loaders.knownUser('v')).toBe(viewer);

    // A batch in flight holds nothing yet; a row listed meanwhile does not replace the batch's.
    const reading = loaders.userById.load('r');
    expect(loaders.knownUser('r')).toBeUndefined();
    loaders.knownUsers([Object.assign(new User(), { id: 'r', name: 'listed meanwhile' })]);
    expect(loaders.knownUser('r')).toBeUndefined();
    const read = await reading;
    expect(read?.name).toBe('read r');
    expect(loaders.knownUser('r')).toBe(read);
    expect(await loaders.userById.load('r')).toBe(read);

    // An id the batch found no row for is not held: the loader answers it (null).
    findByIds.mockResolvedValueOnce([]);
    expect(await loaders.userById.load('gone')).toBeNull();
    expect(loaders.knownUser('gone')).toBeUndefined();

    for (const id of ['k', 'v', 'r']) {
      expect(await loaders.userById.load(id)).toBe(loaders.knownUser(id));
    }
    loaders.clear();
    expect(['k', 'v', 'r'].map((id) => loaders.knownUser(id))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect((await loaders.userById.load('v'))?.name).toBe('read v');
    expect(loaders.knownUser('v')?.name).toBe('read v');
  });

  it('should answer an author at once when held, else read it, and fail on a missing one', async () => {
    const { made, findByIds } = factory();
    const loaders = made.create(Object.assign(new User(), { id: 'v', name: 'viewer' }));
    const listed = Object.assign(new User(), { id: 'k', name: 'listed' });
    loaders.knownUsers([listed]);
    expect(loaders.authorOf('k', 'Post', 'p1')).toBe(listed);
    const read = loaders.authorOf('r', 'Post', 'p2');
    expect(read).toBeInstanceOf(Promise);
    expect((await read).name).toBe('read r');
    expect(findByIds).toHaveBeenCalledTimes(1);
    findByIds.mockResolvedValueOnce([]);
    await expect(loaders.authorOf('gone', 'Comment', 'c1')).rejects.toThrow(
      'Comment c1 has no author gone',
    );
  });

  it('should hold only what userById answers, whatever clears, primes or reads it', async () => {
    const { made, findByIds } = factory();
    const loaders = made.create(null);
    const listed = (id: string) => Object.assign(new User(), { id, name: `listed ${id}` });
    loaders.knownUsers([listed('a'), listed('b'), listed('c')]);

    // Forgotten by the loader: forgotten here, and read again.
    loaders.userById.clear('a');
    expect(loaders.knownUser('a')).toBeUndefined();
    const reading = loaders.userById.load('a');
    expect(loaders.knownUser('a')).toBeUndefined();
    expect(await reading).toBe(loaders.knownUser('a'));
    expect(loaders.knownUser('a')?.name).toBe('read a');

    // Primed on the loader itself: held once its promise has settled, as the loader answers it.
    const primed = listed('p');
    loaders.userById.prime('p', primed);
    expect(await loaders.userById.load('p')).toBe(primed);
    expect(loaders.knownUser('p')).toBe(primed);

    // A batch that fails holds nothing; the loader keeps the failure, as before.
    findByIds.mockRejectedValueOnce(new Error('database gone'));
    await expect(loaders.userById.load('f')).rejects.toThrow('database gone');
    expect(loaders.knownUser('f')).toBeUndefined();

    loaders.userById.clearAll();
    expect(['a', 'b', 'c', 'p'].map((id) => loaders.knownUser(id))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("should prime the viewer's row", async () => {
    const { made, findByIds } = factory();
    const viewer = Object.assign(new User(), { id: 'v', name: 'viewer' });
    expect(await made.create(viewer).userById.load('v')).toBe(viewer);
    expect(findByIds).not.toHaveBeenCalled();
  });
});
