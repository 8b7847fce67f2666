import { TestApp } from './test-app';

const STATUS = `query ($id: ID!) { post(id: $id) { id status publishedAt scheduledAt } }`;

/** A TestApp on the database at `url`, which it leaves in place when it stops. */
export const instanceOn = (url: string) =>
  TestApp.start({ shareDatabaseOf: { databaseUrl: url } as TestApp });

/** The post as its author reads it once it is published; fails after 10 s. */
export async function untilPublished(t: TestApp, id: string, token: string) {
  for (let i = 0; i < 100; i++) {
    const { post } = await t.data(STATUS, { id }, token);
    if (post.status === 'PUBLISHED') return post;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Post ${id} was not published within 10 s`);
}
