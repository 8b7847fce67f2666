import { CREATE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { collect, settle, wsClient } from './helpers/ws-client';
import { BlogEvent } from '../src/blog/events/blog-events';

const ADD = `mutation ($postId: ID!, $text: String!, $parentId: ID) {
  addComment(postId: $postId, text: $text, parentId: $parentId) {
    id text status parent { id } inReplyTo { id } repliesCount
  }
}`;
const LIKE = `mutation ($id: ID!) { likeComment(commentId: $id) { id likesCount isLikedByMe } }`;
const UNLIKE = `mutation ($id: ID!) { unlikeComment(commentId: $id) { id likesCount isLikedByMe } }`;
const UPDATE = `mutation ($id: ID!, $text: String!) {
  updateComment(id: $id, text: $text) { id text textHtml editedAt }
}`;
const DELETE = `mutation ($id: ID!) { deleteComment(id: $id) }`;
const THREADS = `query ($id: ID!, $first: Int, $after: String, $order: CommentOrder) {
  post(id: $id) {
    commentsCount
    comments(first: 20) { id }
    commentsConnection(first: $first, after: $after, order: $order) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node {
        id text textHtml status likesCount isLikedByMe repliesCount editedAt author { id name handle }
        replies(first: 3) { totalCount edges { node { id text parent { id } inReplyTo { id } } } }
      } }
    }
  }
}`;

type Thread = {
  id: string;
  text: string;
  textHtml: string;
  status: string;
  likesCount: number;
  isLikedByMe: boolean;
  repliesCount: number;
  author: { id: string; name: string; handle: string };
  replies: {
    totalCount: number;
    edges: {
      node: { id: string; text: string; parent: { id: string }; inReplyTo: { id: string } | null };
    }[];
  };
};

describe('Comment threads, edits and likes (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  let ann: TestUser;
  let bob: TestUser;
  let cat: TestUser;

  beforeAll(async () => {
    // New accounts' smaller write allowance has its own suite.
    t = await TestApp.start({ env: { NEW_ACCOUNT_HOURS: '0' } });
    [author, ann, bob, cat] = [
      await t.signUp({ name: 'Author' }),
      await t.signUp({ name: 'Ann' }),
      await t.signUp({ name: 'Bob' }),
      await t.signUp({ name: 'Cat' }),
    ];
  });
  afterAll(() => t.close());

  const newPost = async () =>
    (await t.data(CREATE_POST, { input: { title: 'Threads', content: 'Talk' } }, author.token))
      .createPost.id as string;
  const add = async (postId: string, text: string, who: TestUser, parentId?: string) =>
    (await t.data(ADD, { postId, text, parentId }, who.token)).addComment;
  const threads = async (id: string, variables: Record<string, unknown> = {}, who?: TestUser) =>
    (await t.data(THREADS, { id, ...variables }, who?.token)).post;
  const texts = (connection: { edges: { node: { text: string } }[] }) =>
    connection.edges.map((edge) => edge.node.text);

  it('should thread replies two levels deep, recording the comment each answers', async () => {
    const postId = await newPost();
    const a = await add(postId, 'A', ann);
    const r1 = await add(postId, 'r1', bob, a.id);
    const r2 = await add(postId, 'r2', cat, r1.id);
    const r3 = await add(postId, 'r3', ann, r2.id);
    expect(r1).toMatchObject({ parent: { id: a.id }, inReplyTo: { id: a.id }, repliesCount: 0 });
    expect(r2).toMatchObject({ parent: { id: a.id }, inReplyTo: { id: r1.id } });
    expect(r3).toMatchObject({ parent: { id: a.id }, inReplyTo: { id: r2.id } });
    expect(a).toMatchObject({ parent: null, inReplyTo: null, status: 'PUBLISHED' });

    const post = await threads(postId);
    expect(post.commentsCount).toBe(4);
    expect(post.comments).toHaveLength(4);
    expect(post.commentsConnection.totalCount).toBe(1);
    const [thread] = post.commentsConnection.edges.map((edge: { node: Thread }) => edge.node);
    expect(thread).toMatchObject({ id: a.id, repliesCount: 3, author: { name: 'Ann' } });
    expect(thread.replies.totalCount).toBe(3);
    expect(texts(thread.replies)).toEqual(['r1', 'r2', 'r3']);
    expect(thread.replies.edges[1].node.inReplyTo).toEqual({ id: r1.id });
  });

  it('should refuse a parent on another post, and an unknown one, with BAD_USER_INPUT', async () => {
    const [one, two] = [await newPost(), await newPost()];
    const elsewhere = await add(two, 'elsewhere', ann);
    for (const parentId of [elsewhere.id, '00000000-0000-7000-8000-000000000000', 'nope']) {
      const response = await t.gql(ADD, { postId: one, text: 'x', parentId }, bob.token);
      expect(response.errors?.[0].extensions).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'parentId',
      });
    }
    expect((await threads(one)).commentsCount).toBe(0);
  });

  it('should page threads oldest first, newest first and by likes', async () => {
    const postId = await newPost();
    const [a, b, c] = [
      await add(postId, 'a', ann),
      await add(postId, 'b', bob),
      await add(postId, 'c', cat),
    ];
    await add(postId, 'reply', cat, a.id);
    for (const who of [ann, cat]) await t.data(LIKE, { id: b.id }, who.token);
    await t.data(LIKE, { id: c.id }, ann.token);

    const page = async (order: string, first: number, after?: string) =>
      (await threads(postId, { order, first, after })).commentsConnection;
    const walk = async (order: string) => {
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const connection = await page(order, 1, after);
        seen.push(...texts(connection));
        if (!connection.pageInfo.hasNextPage) return seen;
        after = connection.pageInfo.endCursor;
      }
    };
    expect(await walk('OLDEST')).toEqual(['a', 'b', 'c']);
    expect(await walk('NEWEST')).toEqual(['c', 'b', 'a']);
    // b has two likes, c one; a none.
    expect(await walk('TOP')).toEqual(['b', 'c', 'a']);
    const top = await page('TOP', 3);
    expect(top.edges.map((edge: { node: Thread }) => edge.node.likesCount)).toEqual([2, 1, 0]);
    expect(top.totalCount).toBe(3);

    const oldestCursor = (await page('OLDEST', 1)).pageInfo.endCursor;
    const wrongOrder = await t.gql(THREADS, { id: postId, order: 'TOP', after: oldestCursor });
    expect(wrongOrder.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'after',
    });
  });

  it('should read a page of 20 threads with 3 replies each in at most 4 statements, as for 5', async () => {
    const query = `query ($id: ID!) { post(id: $id) { commentsConnection(first: 20) { totalCount
      edges { node { text likesCount isLikedByMe repliesCount author { name }
        replies(first: 3) { edges { node { text isLikedByMe author { name } inReplyTo { id } } } } } } } } }`;
    const countFor = async (threadCount: number) => {
      const postId = await newPost();
      for (let i = 0; i < threadCount; i++) {
        const top = await add(postId, `t${i}`, [ann, bob][i % 2]);
        for (let j = 0; j < 3; j++) await add(postId, `t${i}r${j}`, [bob, cat, ann][j], top.id);
      }
      const { data, count } = await t.counted(query, { id: postId }, cat.token);
      const edges = data.post.commentsConnection.edges;
      expect(edges).toHaveLength(threadCount);
      expect(
        edges.every(
          (e: { node: { replies: { edges: unknown[] } } }) => e.node.replies.edges.length === 3,
        ),
      ).toBe(true);
      return count;
    };
    const atFive = await countFor(5);
    const atTwenty = await countFor(20);
    expect(atTwenty).toBe(atFive);
    expect(atTwenty).toBeLessThanOrEqual(4);
  });

  it('should let only the author edit a comment, rendering it again and setting editedAt', async () => {
    const postId = await newPost();
    const comment = await add(postId, 'Frist', ann);
    const edited = (await t.data(UPDATE, { id: comment.id, text: 'First **fixed**' }, ann.token))
      .updateComment;
    expect(edited.text).toBe('First **fixed**');
    expect(edited.textHtml).toBe('<p>First <strong>fixed</strong></p>');
    expect(new Date(edited.editedAt).getTime()).toBeGreaterThan(0);
    for (const [who, code] of [
      [bob.token, 'FORBIDDEN'],
      [author.token, 'FORBIDDEN'],
      [undefined, 'UNAUTHENTICATED'],
    ] as const) {
      const refused = await t.gql(UPDATE, { id: comment.id, text: 'mine now' }, who);
      expect(refused.errors?.[0].extensions?.code).toBe(code);
    }
    const blank = await t.gql(UPDATE, { id: comment.id, text: '   ' }, ann.token);
    expect(blank.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'text' });
    const [thread] = (await threads(postId)).commentsConnection.edges;
    expect(thread.node.text).toBe('First **fixed**');
  });

  it('should like and unlike idempotently, telling the author once', async () => {
    const postId = await newPost();
    const comment = await add(postId, 'Likeable', ann);
    for (let i = 0; i < 2; i++) {
      expect((await t.data(LIKE, { id: comment.id }, bob.token)).likeComment).toEqual({
        id: comment.id,
        likesCount: 1,
        isLikedByMe: true,
      });
    }
    const [thread] = (await threads(postId, {}, bob)).commentsConnection.edges;
    expect(thread.node).toMatchObject({ likesCount: 1, isLikedByMe: true });
    const anonymous = (await threads(postId)).commentsConnection.edges[0].node;
    expect(anonymous.isLikedByMe).toBe(false);

    const kinds = async (who: TestUser) =>
      (
        await t.data(
          '{ notifications(first: 20) { edges { node { kind actor { name } comment { id } } } } }',
          {},
          who.token,
        )
      ).notifications.edges.map((edge: { node: unknown }) => edge.node);
    expect(await kinds(ann)).toContainEqual({
      kind: 'COMMENT_LIKED',
      actor: { name: 'Bob' },
      comment: { id: comment.id },
    });
    expect(
      (await kinds(ann)).filter((n: { kind: string }) => n.kind === 'COMMENT_LIKED'),
    ).toHaveLength(1);

    for (let i = 0; i < 2; i++) {
      expect((await t.data(UNLIKE, { id: comment.id }, bob.token)).unlikeComment).toEqual({
        id: comment.id,
        likesCount: 0,
        isLikedByMe: false,
      });
    }
    expect((await kinds(ann)).some((n: { kind: string }) => n.kind === 'COMMENT_LIKED')).toBe(
      false,
    );
    const anonymousLike = await t.gql(LIKE, { id: comment.id });
    expect(anonymousLike.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('should tell the author of the comment answered, and the post author once', async () => {
    const postId = await newPost();
    const top = await add(postId, 'top', ann);
    const reply = await add(postId, 'reply', bob, top.id);
    const byAuthor = await add(postId, 'from the author', author, reply.id);
    type Seen = { kind: string; comment: { id: string } | null };
    const list = async (who: TestUser): Promise<Seen[]> =>
      (
        await t.data(
          '{ notifications(first: 50) { edges { node { kind actor { name } comment { id } } } } }',
          {},
          who.token,
        )
      ).notifications.edges.map(
        (edge: { node: { kind: string; comment: { id: string } | null } }) => edge.node,
      );
    expect(await list(ann)).toContainEqual({
      kind: 'COMMENT_REPLIED',
      actor: { name: 'Bob' },
      comment: { id: reply.id },
    });
    expect(await list(bob)).toContainEqual({
      kind: 'COMMENT_REPLIED',
      actor: { name: 'Author' },
      comment: { id: byAuthor.id },
    });
    const toAuthor = (await list(author)).filter((n) => n.comment?.id === reply.id);
    expect(toAuthor.map((n) => n.kind)).toEqual(['POST_COMMENTED']);
  });

  it('should keep a deleted comment with replies as a tombstone, and remove it with its last reply', async () => {
    const postId = await newPost();
    const top = await add(postId, 'will go', ann);
    const reply = await add(postId, 'answer', bob, top.id);
    const lone = await add(postId, 'alone', cat);
    await t.data(LIKE, { id: top.id }, bob.token);

    expect((await t.data(DELETE, { id: top.id }, ann.token)).deleteComment).toBe(top.id);
    let post = await threads(postId, {}, ann);
    const tombstone = post.commentsConnection.edges[0].node as Thread;
    expect(tombstone).toMatchObject({
      id: top.id,
      status: 'DELETED',
      text: '',
      textHtml: '',
      likesCount: 0,
      repliesCount: 1,
      author: { name: '[deleted]', handle: '[deleted]' },
    });
    expect(tombstone.author.id).not.toBe(ann.user.id);
    expect(post.commentsCount).toBe(2);
    expect(post.comments.map((c: { id: string }) => c.id)).toEqual([reply.id, lone.id]);
    const again = await t.gql(DELETE, { id: top.id }, ann.token);
    expect(again.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const editTombstone = await t.gql(UPDATE, { id: top.id, text: 'back' }, ann.token);
    expect(editTombstone.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const replyToTombstone = await t.gql(ADD, { postId, text: 'hm', parentId: top.id }, cat.token);
    expect(replyToTombstone.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');

    await t.data(DELETE, { id: lone.id }, cat.token);
    await t.data(DELETE, { id: reply.id }, bob.token);
    post = await threads(postId);
    expect(post.commentsConnection.totalCount).toBe(0);
    expect(post.commentsCount).toBe(0);
  });

  it('should stream edits and deletions with commentUpdated, and replies with their parent', async () => {
    const postId = await newPost();
    const { ws } = await t.listen();
    const { client } = wsClient(ws, ann.token);
    const updates = collect(
      client,
      `subscription ($postId: ID!) { commentUpdated(postId: $postId) { id text status editedAt author { name } } }`,
      { postId },
    );
    const added = collect(
      client,
      `subscription ($postId: ID!) { commentAdded(postId: $postId) { id parent { id } } }`,
      { postId },
    );
    await t.untilSubscribed(BlogEvent.CommentUpdated, 1);
    await t.untilSubscribed(BlogEvent.CommentAdded, 1);
    try {
      const top = await add(postId, 'top', bob);
      const reply = await add(postId, 'reply', cat, top.id);
      // An event's row is read when it is delivered: the reply is seen as added, and the edit as
      // an edit, only if each arrives before the deletion commits.
      const [first, second] = await added.next(2);
      await t.data(UPDATE, { id: reply.id, text: 'reply, edited' }, cat.token);
      await updates.next(1);
      await t.data(DELETE, { id: reply.id }, cat.token);
      const [edited, deleted] = await updates.next(2);
      expect(edited.data?.commentUpdated).toMatchObject({
        id: reply.id,
        text: 'reply, edited',
        status: 'PUBLISHED',
        author: { name: 'Cat' },
      });
      expect(deleted.data?.commentUpdated).toEqual({
        id: reply.id,
        text: '',
        status: 'DELETED',
        editedAt: null,
        author: { name: '[deleted]' },
      });
      expect(first.data?.commentAdded).toEqual({ id: top.id, parent: null });
      expect(second.data?.commentAdded).toEqual({ id: reply.id, parent: { id: top.id } });
      await settle();
      expect(updates.results).toHaveLength(2);
    } finally {
      updates.dispose();
      added.dispose();
      await client.dispose();
    }
  });
});
