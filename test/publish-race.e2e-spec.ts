import { PubSubEngine } from 'graphql-subscriptions';

import { BLOG_PUB_SUB, Post, PostsService } from '../src/blog';
import { CREATE_POST, PUBLISH_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

describe('Concurrent publishPost of one draft (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  const published: string[] = [];
  let subscription: number;

  beforeAll(async () => {
    t = await TestApp.start();
    author = await t.signUp();
    const pubSub = t.app.get<PubSubEngine>(BLOG_PUB_SUB);
    subscription = await pubSub.subscribe(
      'blog.postPublished',
      ({ postId }: { postId: string }) => published.push(postId),
      {},
    );
  });
  afterAll(async () => {
    t.app.get<PubSubEngine>(BLOG_PUB_SUB).unsubscribe(subscription);
    await t.close();
  });

  /**
   * Holds each publishPost's read of post `id` until `count` of them have read it, so that every
   * call has seen the draft before any writes: the race at its widest, on every run.
   */
  function holdReadsOf(id: string, count: number) {
    const service = t.app.get(PostsService);
    const read = service.findVisible.bind(service);
    const held: (() => void)[] = [];
    return jest.spyOn(service, 'findVisible').mockImplementation(async (postId, viewer) => {
      const post = await read(postId, viewer);
      if (postId !== id || held.length >= count) return post;
      await new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length === count) held.forEach((release) => release());
      });
      return post;
    });
  }

  it('should publish once: one stored publishedAt, in all 8 answers, and one event', async () => {
    const input = { title: 'Race', content: 'x', publish: false };
    const { createPost: draft } = await t.data(CREATE_POST, { input }, author.token);

    const reads = holdReadsOf(draft.id, 8);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.data(PUBLISH_POST, { id: draft.id }, author.token)),
    ).finally(() => reads.mockRestore());

    const row = await t.dataSource.getRepository(Post).findOneByOrFail({ id: draft.id });
    expect(row.publishedAt).not.toBeNull();
    const stored = row.publishedAt!.toISOString();
    expect(answers.map((answer) => answer.publishPost.publishedAt)).toEqual(Array(8).fill(stored));
    expect(published.filter((postId) => postId === draft.id)).toEqual([draft.id]);
  });
});
