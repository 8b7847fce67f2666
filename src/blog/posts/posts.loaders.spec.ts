import { Post } from './post.entity';
import { postsLoaders } from './posts.loaders';
import { PostsService } from './posts.service';
import { LoaderCache } from '../common/loaders';

const post = (id: string, content?: string) =>
  Object.assign(new Post(), { id, title: `Title ${id}`, content, authorId: 'a' });

/** The loaders over a service that answers one page of `a` and any post by id, whole. */
function loaders() {
  const byIds: string[][] = [];
  const service = {
    listByAuthors: async (
      ids: readonly string[],
      _page: unknown,
      options?: { content?: boolean },
    ) =>
      new Map(ids.map((id) => [id, [post('p1', options?.content === false ? undefined : 'Text')]])),
    findByIds: async (ids: readonly string[]) => {
      byIds.push([...ids]);
      return ids.map((id) => post(id, 'Text'));
    },
  } as unknown as PostsService;
  return { loaders: postsLoaders(service, new LoaderCache()), byIds };
}

describe('postsLoaders', () => {
  it("should answer a post by id from an author's page read whole", async () => {
    const { loaders: l, byIds } = loaders();
    await l.postsByAuthor.for({ first: 1, after: null }).load('a');
    expect((await l.postById.load('p1'))?.content).toBe('Text');
    expect(byIds).toEqual([]);
  });

  it('should load a post by id, content and all, that a page read without content lists', async () => {
    const { loaders: l, byIds } = loaders();
    const [summary] = await l.postSummariesByAuthor.for({ first: 1, after: null }).load('a');
    expect(summary.content).toBeUndefined();
    expect((await l.postById.load('p1'))?.content).toBe('Text');
    expect(byIds).toEqual([['p1']]);
  });
});
