import DataLoader from 'dataloader';

import { BlogLoadersFactory } from './blog-loaders';
import { CommentsService } from './comments/comments.service';
import { FollowsService } from './follows/follows.service';
import { LikesService } from './likes/likes.service';
import { PostsService } from './posts/posts.service';
import { User } from './users/user.entity';
import { UsersService } from './users/users.service';

function factory() {
  const findByIds = jest.fn(async (ids: readonly string[]) =>
    ids.map((id) => Object.assign(new User(), { id, name: `read ${id}` })),
  );
  const countByPosts = jest.fn(async (ids: readonly string[]) => new Map(ids.map((id) => [id, 3])));
  const made = new BlogLoadersFactory(
    { findByIds } as unknown as UsersService,
    {} as PostsService,
    {} as CommentsService,
    { countByPosts } as unknown as LikesService,
    {} as FollowsService,
  );
  return { made, findByIds, countByPosts };
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

  it("should prime the viewer's row", async () => {
    const { made, findByIds } = factory();
    const viewer = Object.assign(new User(), { id: 'v', name: 'viewer' });
    expect(await made.create(viewer).userById.load('v')).toBe(viewer);
    expect(findByIds).not.toHaveBeenCalled();
  });
});
