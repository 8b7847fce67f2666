import { Client } from 'graphql-ws';

import { createPostgresDatabase } from './helpers/databases';
import { FOLLOW_USER } from './helpers/documents';
import { instanceOn, untilPublished } from './helpers/scheduled';
import { collect, settle, wsClient } from './helpers/ws-client';
import { BlogEvent } from '../src/blog/events/blog-events';

const CREATE = `mutation ($input: CreatePostInput!) {
  createPost(input: $input) { id slug status scheduledAt }
}`;
const POST_CREATED = 'subscription { postCreated { id } }';
const NOTICES = `{ notifications(first: 100) { edges { node { kind post { id } } } } }`;

/**
 * Two instances on one PostgreSQL database both look for due posts every second; each post is
 * claimed with `FOR UPDATE SKIP LOCKED`, so exactly one of them publishes it.
 */
describe('Scheduled posts on two instances at once (e2e)', () => {
  let database: { url: string; drop: () => Promise<void> };

  beforeEach(async () => {
    database = await createPostgresDatabase();
  });
  afterEach(() => database.drop());

  it('should publish each due post once, with one event and one notification per follower, from two instances', async () => {
    const [one, two] = [await instanceOn(database.url), await instanceOn(database.url)];
    const clients: Client[] = [];
    try {
      const author = await one.signUp();
      const followers = [await one.signUp(), await two.signUp(), await one.signUp()];
      for (const follower of followers) {
        await one.data(FOLLOW_USER, { userId: author.user.id }, follower.token);
      }
      // Without Redis each instance streams the events of its own publications: together, each
      // post's postCreated must come exactly once.
      const streams = [];
      for (const instance of [one, two]) {
        const { client } = wsClient((await instance.listen()).ws);
        clients.push(client);
        streams.push(collect<{ postCreated: { id: string } }>(client, POST_CREATED));
        await instance.untilSubscribed(BlogEvent.PostPublished, 1);
      }
      const at = new Date(Date.now() + 2_000).toISOString();
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const input = { title: `Due ${i}`, content: 'x', publishAt: at };
        const instance = i % 2 ? one : two;
        ids.push((await instance.data(CREATE, { input }, author.token)).createPost.id);
      }
      for (const id of ids) await untilPublished(one, id, author.token);
      await settle(500);
      const streamed = streams
        .flatMap((stream) => stream.results)
        .map((result) => result.data?.postCreated.id)
        .sort();
      expect(streamed).toEqual([...ids].sort());
      await one.fannedOut();
      await two.fannedOut();
      for (const follower of followers) {
        const { notifications } = await two.data(NOTICES, {}, follower.token);
        const published = notifications.edges
          .map((edge: { node: { kind: string; post: { id: string } } }) => edge.node)
          .filter((node: { kind: string }) => node.kind === 'FOLLOWEE_PUBLISHED')
          .map((node: { post: { id: string } }) => node.post.id)
          .sort();
        expect(published).toEqual([...ids].sort());
      }
    } finally {
      for (const client of clients) await client.dispose();
      await one.close();
      await two.close();
    }
  });
});
