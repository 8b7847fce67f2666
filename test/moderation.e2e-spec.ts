import { CREATE_POST } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';
import { CommentsService, User } from '../src/blog';
import { Sql } from '../src/blog/common/sql';
import { BlogEvent } from '../src/blog/events/blog-events';
import { PostsService } from '../src/blog/posts/posts.service';
import { Role } from '../src/blog/users/roles';

const ADD = `mutation ($postId: ID!, $text: String!) { addComment(postId: $postId, text: $text) { id status } }`;
const HIDE = `mutation ($id: ID!) { hideComment(id: $id) { id status text } }`;
const RESTORE = `mutation ($id: ID!) { restoreComment(id: $id) { id status text } }`;
const LOCK = `mutation ($postId: ID!, $locked: Boolean!) { lockComments(postId: $postId, locked: $locked) { id commentsLocked } }`;
const BAN = `mutation ($userId: ID!, $reason: String!, $until: DateTime) {
  banUser(userId: $userId, reason: $reason, until: $until) { id banned bannedUntil banReason }
}`;
const UNBAN = `mutation ($userId: ID!) { unbanUser(userId: $userId) { id banned bannedUntil } }`;
const COMMENTS = `query ($id: ID!) { post(id: $id) { commentsCount comments { id status text }
  commentsConnection { totalCount edges { node { id status } } } } }`;
const LOG = `{ moderationLog(first: 50) { totalCount edges { node {
  action targetType targetId reason summary actor { id } } } } }`;

describe('Moderation: hiding, locking, bans and the log (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let author: TestUser;
  let reader: TestUser;
  let troll: TestUser;
  let ws: string;

  const setRole = (user: TestUser, role: Role) =>
    t.dataSource.getRepository(User).update({ id: user.user.id }, { role });

  beforeAll(async () => {
    t = await TestApp.start({ env: { NEW_ACCOUNT_HOURS: '0' } });
    [admin, editor, author, reader, troll] = [
      await t.signUp({ name: 'Admin' }),
      await t.signUp({ name: 'Editor' }),
      await t.signUp({ name: 'Author' }),
      await t.signUp({ name: 'Reader' }),
      await t.signUp({ name: 'Troll', handle: 'troll' }),
    ];
    await setRole(admin, Role.ADMIN);
    await setRole(editor, Role.EDITOR);
    ({ ws } = await t.listen());
  });
  afterAll(() => t.close());

  const newPost = async (who = author) =>
    (await t.data(CREATE_POST, { input: { title: 'Moderated', content: 'Body' } }, who.token))
      .createPost.id as string;
  const codeOf = async (query: string, variables: Record<string, unknown>, who?: TestUser) =>
    (await t.gql(query, variables, who?.token)).errors?.[0].extensions?.code;

  it('should hide a comment from all but its author and moderators, with the counts', async () => {
    const postId = await newPost();
    const rude = (await t.data(ADD, { postId, text: 'rude' }, troll.token)).addComment;
    await t.data(ADD, { postId, text: 'kind' }, reader.token);
    for (const who of [reader, author, troll])
      expect(await codeOf(HIDE, { id: rude.id }, who)).toBe('FORBIDDEN');
    expect(await codeOf(HIDE, { id: rude.id })).toBe('UNAUTHENTICATED');
    expect((await t.data(HIDE, { id: rude.id }, editor.token)).hideComment).toEqual({
      id: rude.id,
      status: 'HIDDEN',
      text: 'rude',
    });

    const seen = async (who?: TestUser) =>
      (await t.data(COMMENTS, { id: postId }, who?.token)).post;
    for (const who of [undefined, reader, author]) {
      const post = await seen(who);
      expect(post.commentsCount).toBe(1);
      expect(post.comments.map((c: { text: string }) => c.text)).toEqual(['kind']);
      expect(post.commentsConnection.totalCount).toBe(1);
    }
    for (const who of [troll, editor, admin]) {
      const post = await seen(who);
      expect(post.commentsCount).toBe(2);
      expect(post.comments[0]).toEqual({ id: rude.id, status: 'HIDDEN', text: 'rude' });
    }

    expect((await t.data(RESTORE, { id: rude.id }, admin.token)).restoreComment.status).toBe(
      'PUBLISHED',
    );
    expect((await seen(reader)).commentsCount).toBe(2);
  });

  /**
   * The first commentUpdated event an open page of the reader gets for a new comment of the
   * troll's once `hide` has run on it; with the comment's id.
   */
  const firstUpdateAfter = async (hide: (commentId: string) => Promise<unknown>) => {
    const postId = await newPost();
    const comment = (await t.data(ADD, { postId, text: 'soon hidden' }, troll.token)).addComment;
    const { client } = wsClient(ws, reader.token);
    const updates = collect(
      client,
      'subscription ($postId: ID!) { commentUpdated(postId: $postId) { id status text author { name } } }',
      { postId },
    );
    await t.untilSubscribed(BlogEvent.CommentUpdated, 1);
    try {
      await hide(comment.id);
      const [update] = await updates.next(1);
      return { id: comment.id as string, update: update?.data?.commentUpdated };
    } finally {
      updates.dispose();
      await client.dispose();
    }
  };

  it('should stream a hide to an open page without the text', async () => {
    const { id, update } = await firstUpdateAfter((commentId) =>
      t.data(HIDE, { id: commentId }, editor.token),
    );
    expect(update).toEqual({ id, status: 'HIDDEN', text: '', author: { name: '[deleted]' } });
  });

  it('should stream a hide once its transaction has committed, however long it takes', async () => {
    const { id, update } = await firstUpdateAfter((commentId) =>
      t.app.get(Sql).transaction(async (sql) => {
        await t.app.get(CommentsService).setHidden(commentId, true, sql);
        // An event delivered before the commit would read the comment as still published.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }),
    );
    expect(update).toEqual({ id, status: 'HIDDEN', text: '', author: { name: '[deleted]' } });
  });

  it("should let the post's author and moderators lock its comments, and refuse new ones", async () => {
    const postId = await newPost();
    expect(await codeOf(LOCK, { postId, locked: true }, reader)).toBe('FORBIDDEN');
    expect((await t.data(LOCK, { postId, locked: true }, author.token)).lockComments).toEqual({
      id: postId,
      commentsLocked: true,
    });
    for (const who of [reader, author, admin]) {
      expect(await codeOf(ADD, { postId, text: 'late' }, who)).toBe('FORBIDDEN');
    }
    await t.data(LOCK, { postId, locked: false }, editor.token);
    expect(
      (await t.data(ADD, { postId, text: 'open again' }, reader.token)).addComment.status,
    ).toBe('PUBLISHED');
  });

  it('should ban a user from every write, telling them why and until when, on HTTP and WebSocket', async () => {
    const postId = await newPost();
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect(await codeOf(BAN, { userId: troll.user.id, reason: 'Spam' }, reader)).toBe('FORBIDDEN');
    const banned = (
      await t.data(BAN, { userId: troll.user.id, reason: 'Spam', until }, editor.token)
    ).banUser;
    expect(banned).toEqual({
      id: troll.user.id,
      banned: true,
      bannedUntil: until,
      banReason: 'Spam',
    });

    const refused = await t.gql(ADD, { postId, text: 'still here' }, troll.token);
    expect(refused.errors?.[0].extensions).toEqual({
      code: 'FORBIDDEN',
      ban: { reason: 'Spam', until },
    });
    expect(refused.errors?.[0].message).toContain('Spam');
    const create = await t.gql(CREATE_POST, { input: { title: 'x', content: 'y' } }, troll.token);
    expect(create.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    // Reads, and signing out everywhere, are left alone.
    expect((await t.data(COMMENTS, { id: postId }, troll.token)).post.commentsCount).toBe(0);
    const me = (await t.data('{ me { banned bannedUntil banReason } }', {}, troll.token)).me;
    expect(me).toEqual({ banned: true, bannedUntil: until, banReason: 'Spam' });
    const others = (
      await t.data(
        `{ user(id: "${troll.user.id}") { banned bannedUntil banReason } }`,
        {},
        reader.token,
      )
    ).user;
    expect(others).toEqual({ banned: false, bannedUntil: null, banReason: null });

    // The socket still reads for them: a banned user's subscriptions go on.
    const { client } = wsClient(ws, troll.token);
    const added = collect(
      client,
      'subscription ($postId: ID!) { commentAdded(postId: $postId) { text } }',
      { postId },
    );
    await t.untilSubscribed(BlogEvent.CommentAdded, 1);
    try {
      await t.data(ADD, { postId, text: 'from a reader' }, reader.token);
      const [event] = await added.next(1);
      expect(event.data?.commentAdded).toEqual({ text: 'from a reader' });
    } finally {
      added.dispose();
      await client.dispose();
    }

    expect((await t.data(UNBAN, { userId: troll.user.id }, admin.token)).unbanUser).toEqual({
      id: troll.user.id,
      banned: false,
      bannedUntil: null,
    });
    expect((await t.data(ADD, { postId, text: 'sorry' }, troll.token)).addComment.status).toBe(
      'PUBLISHED',
    );
  });

  it('should end a ban at its time, and keep a ban for good', async () => {
    const target = await t.signUp({ name: 'Short ban' });
    const until = new Date(Date.now() + 60_000).toISOString();
    await t.data(BAN, { userId: target.user.id, reason: 'Cool off', until }, editor.token);
    const postId = await newPost();
    expect(await codeOf(ADD, { postId, text: 'x' }, target)).toBe('FORBIDDEN');
    await t.dataSource
      .getRepository(User)
      .update({ id: target.user.id }, { bannedUntil: new Date(Date.now() - 1000) });
    expect((await t.data(ADD, { postId, text: 'back' }, target.token)).addComment.status).toBe(
      'PUBLISHED',
    );

    const forGood = (await t.data(BAN, { userId: target.user.id, reason: 'Again' }, admin.token))
      .banUser;
    expect(forGood).toEqual({
      id: target.user.id,
      banned: true,
      bannedUntil: null,
      banReason: 'Again',
    });
    const refused = await t.gql(ADD, { postId, text: 'x' }, target.token);
    expect(refused.errors?.[0].extensions).toEqual({
      code: 'FORBIDDEN',
      ban: { reason: 'Again', until: null },
    });
  });

  it('should refuse bans of oneself, of admins, of editors by editors, and in the past', async () => {
    const other = await t.signUp();
    await setRole(other, Role.EDITOR);
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(await codeOf(BAN, { userId: editor.user.id, reason: 'x' }, editor)).toBe(
      'BAD_USER_INPUT',
    );
    expect(await codeOf(BAN, { userId: admin.user.id, reason: 'x' }, editor)).toBe('FORBIDDEN');
    expect(await codeOf(BAN, { userId: other.user.id, reason: 'x' }, editor)).toBe('FORBIDDEN');
    expect(await codeOf(BAN, { userId: reader.user.id, reason: 'x', until: past }, editor)).toBe(
      'BAD_USER_INPUT',
    );
    expect(await codeOf(BAN, { userId: reader.user.id, reason: '  ' }, editor)).toBe(
      'BAD_USER_INPUT',
    );
    expect(
      await codeOf(BAN, { userId: '00000000-0000-7000-8000-000000000000', reason: 'x' }, editor),
    ).toBe('NOT_FOUND');
    expect(
      (await t.data(BAN, { userId: other.user.id, reason: 'Rogue editor' }, admin.token)).banUser
        .banned,
    ).toBe(true);
  });

  it('should hide a post from readers until moderation restores it, and keep its author from publishing it', async () => {
    const postId = await newPost();
    const posts = t.app.get(PostsService);
    expect(await posts.setHiddenByModeration(postId, true)).toBe(true);
    const read = `query ($id: ID!) { post(id: $id) { id status hiddenAt publishedAt } }`;
    for (const who of [undefined, reader]) {
      expect((await t.data(read, { id: postId }, who?.token)).post).toBeNull();
    }
    const list = (await t.data('{ posts(first: 100) { id } }')).posts.map(
      (p: { id: string }) => p.id,
    );
    expect(list).not.toContain(postId);
    const own = (await t.data(read, { id: postId }, author.token)).post;
    expect(own).toMatchObject({ id: postId, status: 'DRAFT', publishedAt: null });
    expect(own.hiddenAt).not.toBeNull();
    expect((await t.data(read, { id: postId }, editor.token)).post.hiddenAt).not.toBeNull();
    const publish = `mutation ($id: ID!) { publishPost(id: $id) { id } }`;
    expect(await codeOf(publish, { id: postId }, author)).toBe('FORBIDDEN');

    expect(await posts.setHiddenByModeration(postId, false)).toBe(true);
    const back = (await t.data(read, { id: postId }, reader.token)).post;
    expect(back).toMatchObject({ id: postId, status: 'PUBLISHED', hiddenAt: null });
  });

  it('should log every action for admins only, and keep entries of deleted targets', async () => {
    const postId = await newPost();
    const comment = (await t.data(ADD, { postId, text: 'logged' }, reader.token)).addComment;
    await t.data(HIDE, { id: comment.id }, editor.token);
    await t.data(LOCK, { postId, locked: true }, editor.token);
    await t.data(`mutation { deletePost(id: "${postId}") }`, {}, author.token);

    expect(await codeOf(LOG, {}, editor)).toBe('FORBIDDEN');
    expect(await codeOf(LOG, {}, reader)).toBe('FORBIDDEN');
    expect(await codeOf(LOG, {})).toBe('UNAUTHENTICATED');
    const log = (await t.data(LOG, {}, admin.token)).moderationLog;
    const entries = log.edges.map((edge: { node: unknown }) => edge.node);
    expect(entries).toContainEqual({
      action: 'HIDE_COMMENT',
      targetType: 'COMMENT',
      targetId: comment.id,
      reason: null,
      summary: 'logged',
      actor: { id: editor.user.id },
    });
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'LOCK_COMMENTS', targetId: postId, summary: 'Moderated' }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'BAN_USER', targetId: troll.user.id, reason: 'Spam' }),
    );
    expect(log.totalCount).toBe(entries.length);
  });
});

describe('New accounts with links (e2e)', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it("should hold a new account's comment with a link, for its author and moderators alone", async () => {
    t = await TestApp.start({
      env: {
        HOLD_NEW_ACCOUNT_LINKS: 'true',
        NEW_ACCOUNT_HOURS: '24',
        RATE_LIMIT_WRITES_PER_MINUTE: '1000',
      },
    });
    const [author, fresh, editor] = [await t.signUp(), await t.signUp(), await t.signUp()];
    await t.dataSource.getRepository(User).update({ id: editor.user.id }, { role: Role.EDITOR });
    const postId = (
      await t.data(CREATE_POST, { input: { title: 'T', content: 'B' } }, author.token)
    ).createPost.id;
    const plain = (await t.data(ADD, { postId, text: 'no link here' }, fresh.token)).addComment;
    const linked = (await t.data(ADD, { postId, text: 'buy at https://spam.example' }, fresh.token))
      .addComment;
    expect(plain.status).toBe('PUBLISHED');
    expect(linked.status).toBe('HELD');
    const count = async (who?: TestUser) =>
      (await t.data(COMMENTS, { id: postId }, who?.token)).post.commentsCount;
    expect(await count()).toBe(1);
    expect(await count(author)).toBe(1);
    expect(await count(fresh)).toBe(2);
    expect(await count(editor)).toBe(2);
    const unread = (await t.data('{ unreadNotificationsCount }', {}, author.token))
      .unreadNotificationsCount;
    expect(unread).toBe(1);
    expect((await t.data(RESTORE, { id: linked.id }, editor.token)).restoreComment.status).toBe(
      'PUBLISHED',
    );
    expect(await count()).toBe(2);
  });
});
