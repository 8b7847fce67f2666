import {
  ADD_COMMENT,
  CREATE_POST,
  DELETE_COMMENT,
  MISSING_ID,
  POST_BY_ID,
} from './helpers/documents';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';

/**
 * Issue 65, reports and the moderation queue: who may report what, once, and how often; the
 * auto-hide rule; the queue's grouping, pages and statements; each resolution's effect, and the
 * moderation log it writes.
 */

const REPORT_POST = `mutation ($id: ID!, $reason: ReportReason!, $note: String) {
  reportPost(postId: $id, reason: $reason, note: $note) }`;
const REPORT_COMMENT = `mutation ($id: ID!, $reason: ReportReason!, $note: String) {
  reportComment(commentId: $id, reason: $reason, note: $note) }`;
const ITEM = `id status action reports reasons createdAt resolvedAt resolvedBy { id }
  target { __typename ... on Post { id title } ... on Comment { id text status } }
  reportList { reason note createdAt reporter { id } }`;
const QUEUE = `query ($status: ReportStatus, $first: Int, $after: String) {
  moderationQueue(status: $status, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${ITEM} } } } }`;
const RESOLVE = `mutation ($id: ID!, $action: ReportAction!) {
  resolveReport(id: $id, action: $action) { ${ITEM} } }`;
const LOG = `query ($after: String) { moderationLog(first: 100, after: $after) {
  pageInfo { hasNextPage endCursor }
  edges { node { action targetType targetId reason summary actor { id } } } } }`;
const SET_ROLE = `mutation ($userId: ID!, $role: Role!) { setUserRole(userId: $userId, role: $role) { id } }`;
const POSTS = '{ posts(first: 100) { id } }';
const COMMENTS_OF =
  'query ($id: ID!) { post(id: $id) { comments(first: 100) { id } commentsCount } }';

interface Item {
  id: string;
  status: 'OPEN' | 'RESOLVED';
  action: string | null;
  reports: number;
  reasons: string[];
  resolvedAt: string | null;
  resolvedBy: { id: string } | null;
  target: { __typename: 'Post' | 'Comment'; id: string; title?: string; status?: string };
  reportList: { reason: string; note: string | null; reporter: { id: string } }[];
}

/** A page of a connection, as the tests select it. */
interface Page<T> {
  totalCount?: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { node: T }[];
}

interface LogEntry {
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  summary: string | null;
  actor: { id: string } | null;
}

/** `ok`, or the code of the first error. */
const outcomeOf = (response: GraphQLResponse) =>
  response.errors?.length ? (response.errors[0].extensions?.code ?? 'error') : 'ok';

/** A running app with an admin, an editor, a contributor and readers to report with. */
async function community(env: Record<string, string> = {}) {
  const t = await TestApp.start({ env: { NEW_ACCOUNT_HOURS: '0', ...env } });
  const admin = await t.signUp({ name: 'Admin' });
  await t.makeAdmin(admin.user.id);
  const withRole = async (name: string, role: string) => {
    const user = await t.signUp({ name });
    await t.data(SET_ROLE, { userId: user.user.id, role }, admin.token);
    return user;
  };
  const editor = await withRole('Editor', 'EDITOR');
  const contributor = await withRole('Contributor', 'CONTRIBUTOR');

  /** A published post of `author`. */
  const post = async (author: TestUser, title = 'A post'): Promise<string> =>
    (await t.data(CREATE_POST, { input: { title, content: 'Words' } }, author.token)).createPost.id;
  /** A comment of `author` on `postId`. */
  const comment = async (author: TestUser, postId: string, text = 'A comment'): Promise<string> =>
    (await t.data(ADD_COMMENT, { postId, text }, author.token)).addComment.id;
  const reportPost = (who: TestUser | undefined, id: string, reason = 'SPAM', note?: string) =>
    t.gql(REPORT_POST, { id, reason, note }, who?.token);
  const reportComment = (who: TestUser | undefined, id: string, reason = 'SPAM', note?: string) =>
    t.gql(REPORT_COMMENT, { id, reason, note }, who?.token);

  /** Every item of `status`, page by page, as the admin sees them. */
  const queue = async (status = 'OPEN'): Promise<Item[]> => {
    const items: Item[] = [];
    for (let after: string | null = null; ;) {
      const { moderationQueue }: { moderationQueue: Page<Item> } = await t.data(
        QUEUE,
        { status, first: 50, after },
        admin.token,
      );
      items.push(...moderationQueue.edges.map((edge) => edge.node));
      if (!moderationQueue.pageInfo.hasNextPage) return items;
      after = moderationQueue.pageInfo.endCursor;
    }
  };
  /** The item of `targetId` in the queue of `status`, if any. */
  const itemOf = async (targetId: string, status = 'OPEN') =>
    (await queue(status)).find((item) => item.target.id === targetId);
  /** Every entry of the moderation log, newest first. */
  const log = async (): Promise<LogEntry[]> => {
    const entries: LogEntry[] = [];
    for (let after: string | null = null; ;) {
      const { moderationLog }: { moderationLog: Page<LogEntry> } = await t.data(
        LOG,
        { after },
        admin.token,
      );
      entries.push(...moderationLog.edges.map((edge) => edge.node));
      if (!moderationLog.pageInfo.hasNextPage) return entries;
      after = moderationLog.pageInfo.endCursor;
    }
  };
  const resolve = (who: TestUser | undefined, id: string, action: string) =>
    t.gql(RESOLVE, { id, action }, who?.token);
  /** Whether a reader who is not its author finds the post, by id and in `posts`. */
  const readable = async (postId: string) => {
    const { post: byId } = await t.data(POST_BY_ID, { id: postId });
    const { posts } = await t.data(POSTS);
    const listed = posts.some((p: { id: string }) => p.id === postId);
    expect(listed).toBe(byId !== null);
    return listed;
  };

  return {
    t,
    admin,
    editor,
    contributor,
    post,
    comment,
    reportPost,
    reportComment,
    queue,
    itemOf,
    log,
    resolve,
    readable,
  };
}

type Community = Awaited<ReturnType<typeof community>>;

describe('Reports and the moderation queue (e2e)', () => {
  let c: Community;
  let t: TestApp;
  let author: TestUser;
  const readers: TestUser[] = [];
  const reader = (n: number) => readers[n];

  beforeAll(async () => {
    c = await community();
    t = c.t;
    author = await t.signUp({ name: 'Author' });
    for (let n = 0; n < 7; n++) readers.push(await t.signUp({ name: `Reader ${n}` }));
  });
  afterAll(() => t.close());

  describe('reporting', () => {
    it('should take a report from every signed-in role, and none from the anonymous', async () => {
      const postId = await c.post(author);
      expect(outcomeOf(await c.reportPost(undefined, postId))).toBe('UNAUTHENTICATED');
      for (const who of [c.contributor, reader(0), c.editor, c.admin]) {
        expect(await c.reportPost(who, postId)).toEqual({ data: { reportPost: true } });
      }
      const item = await c.itemOf(postId);
      expect(item).toMatchObject({ status: 'OPEN', action: null, reports: 4, reasons: ['SPAM'] });
      expect(item!.reportList.map((report) => report.reporter.id)).toEqual(
        [c.contributor, reader(0), c.editor, c.admin].map((who) => who.user.id),
      );
    });

    it('should answer true to a second report of the same target and add nothing', async () => {
      const postId = await c.post(author);
      await c.reportPost(reader(0), postId, 'SPAM');
      expect(await c.reportPost(reader(0), postId, 'HATE', 'Again')).toEqual({
        data: { reportPost: true },
      });
      expect(await c.itemOf(postId)).toMatchObject({ reports: 1, reasons: ['SPAM'] });
    });

    it("should refuse one's own post or comment, and what the reporter cannot see", async () => {
      const postId = await c.post(author);
      const commentId = await c.comment(reader(1), postId);
      expect(await c.reportPost(author, postId)).toMatchObject({
        errors: [{ extensions: { code: 'BAD_USER_INPUT', field: 'postId' } }],
      });
      expect(await c.reportComment(reader(1), commentId)).toMatchObject({
        errors: [{ extensions: { code: 'BAD_USER_INPUT', field: 'commentId' } }],
      });
      const draft = (
        await t.data(
          CREATE_POST,
          { input: { title: 'Draft', content: 'Words', publish: false } },
          author.token,
        )
      ).createPost.id;
      for (const id of [draft, MISSING_ID, 'not-an-id']) {
        expect(outcomeOf(await c.reportPost(reader(0), id))).toBe('NOT_FOUND');
        expect(outcomeOf(await c.reportComment(reader(0), id))).toBe('NOT_FOUND');
      }
      // A hidden comment is seen by its author and moderators alone.
      const hidden = await c.comment(reader(2), postId);
      await t.data(
        `mutation ($id: ID!) { hideComment(id: $id) { id } }`,
        { id: hidden },
        c.editor.token,
      );
      expect(outcomeOf(await c.reportComment(reader(0), hidden))).toBe('NOT_FOUND');
      expect(await c.itemOf(postId)).toBeUndefined();
    });

    it('should keep a trimmed note of at most 500 characters, for moderators', async () => {
      const postId = await c.post(author);
      const tooLong = await c.reportPost(reader(0), postId, 'OTHER', 'x'.repeat(501));
      expect(tooLong).toMatchObject({
        errors: [{ extensions: { code: 'BAD_USER_INPUT', field: 'note' } }],
      });
      expect(await c.reportPost(reader(0), postId, 'OTHER', `  ${'y'.repeat(500)}  `)).toEqual({
        data: { reportPost: true },
      });
      await c.reportPost(reader(1), postId, 'OTHER', '   ');
      const item = await c.itemOf(postId);
      expect(item!.reportList.map((report) => report.note)).toEqual(['y'.repeat(500), null]);
    });

    it('should refuse a banned user', async () => {
      const postId = await c.post(author);
      const troll = await t.signUp({ name: 'Troll' });
      await t.data(
        'mutation ($id: ID!) { banUser(userId: $id, reason: "Spam", until: null) { id } }',
        { id: troll.user.id },
        c.admin.token,
      );
      expect(outcomeOf(await c.reportPost(troll, postId))).toBe('FORBIDDEN');
    });
  });

  describe('the hourly allowance', () => {
    it("should refuse the reporter's eleventh report of the hour with retryAfter, but not a repeat", async () => {
      const reporter = await t.signUp({ name: 'Busy reporter' });
      const targets: string[] = [];
      for (let n = 0; n < 11; n++) targets.push(await c.post(author, `Target ${n}`));
      for (const id of targets.slice(0, 10)) {
        expect(outcomeOf(await c.reportPost(reporter, id))).toBe('ok');
      }
      const refused = await c.reportPost(reporter, targets[10]);
      expect(refused.errors?.[0].extensions).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
      const { retryAfter } = refused.errors![0].extensions as { retryAfter: number };
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await c.itemOf(targets[10])).toBeUndefined();
      // A report made already answers true, as always.
      expect(await c.reportPost(reporter, targets[0])).toEqual({ data: { reportPost: true } });
      // Others are counted on their own.
      expect(outcomeOf(await c.reportPost(reader(3), targets[10]))).toBe('ok');
    });
  });

  describe('auto-hide', () => {
    it('should hide a post reported by five distinct readers, log it, and bring it back on DISMISS', async () => {
      const postId = await c.post(author, 'Contested');
      for (const n of [0, 1, 2, 3]) await c.reportPost(reader(n), postId, n % 2 ? 'HATE' : 'SPAM');
      // Repeats by the same four change nothing.
      for (const n of [0, 1, 2, 3]) await c.reportPost(reader(n), postId);
      expect(await c.readable(postId)).toBe(true);
      await c.reportPost(reader(4), postId, 'ILLEGAL');
      expect(await c.readable(postId)).toBe(false);
      // Its author still sees it, as moderators do in the queue.
      expect((await t.data(POST_BY_ID, { id: postId }, author.token)).post).not.toBeNull();
      const item = await c.itemOf(postId);
      expect(item).toMatchObject({ reports: 5, reasons: ['SPAM', 'HATE', 'ILLEGAL'] });
      expect(item!.target).toEqual({ __typename: 'Post', id: postId, title: 'Contested' });
      const [autoHidden] = (await c.log()).filter((entry) => entry.targetId === postId);
      expect(autoHidden).toEqual({
        action: 'HIDE_POST',
        targetType: 'POST',
        targetId: postId,
        reason: 'auto-hidden after 5 reports',
        summary: 'Contested',
        actor: null,
      });

      const dismissed = await c.resolve(c.editor, item!.id, 'DISMISS');
      expect(dismissed.data?.resolveReport).toMatchObject({
        id: item!.id,
        status: 'RESOLVED',
        action: 'DISMISS',
        reports: 5,
        resolvedBy: { id: c.editor.user.id },
      });
      expect(await c.readable(postId)).toBe(true);
      const entries = (await c.log()).filter((entry) => entry.targetId === postId);
      expect(entries.map((entry) => [entry.action, entry.actor?.id ?? null])).toEqual([
        ['RESTORE_POST', c.editor.user.id],
        ['DISMISS_REPORTS', c.editor.user.id],
        ['HIDE_POST', null],
      ]);
      // The reports are closed: a new reader opens a new item, the old reporters add nothing.
      await c.reportPost(reader(0), postId);
      expect(await c.itemOf(postId)).toBeUndefined();
      await c.reportPost(reader(5), postId);
      expect(await c.itemOf(postId)).toMatchObject({ reports: 1 });
    });

    it('should open one item, and hide once, when five readers report at the same time', async () => {
      const postId = await c.post(author, 'Rushed');
      const crowd = await Promise.all([0, 1, 2, 3, 4].map(() => t.signUp()));
      const answers = await Promise.all(crowd.map((who) => c.reportPost(who, postId)));
      expect(answers.map(outcomeOf)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
      expect(await c.readable(postId)).toBe(false);
      expect((await c.queue()).filter((item) => item.target.id === postId)).toEqual([
        expect.objectContaining({ reports: 5 }),
      ]);
      expect((await c.log()).filter((entry) => entry.targetId === postId)).toEqual([
        expect.objectContaining({ action: 'HIDE_POST', actor: null }),
      ]);
    });

    it('should hide a comment reported by five distinct readers', async () => {
      const postId = await c.post(author);
      const commentId = await c.comment(author, postId, 'Rude words');
      for (const n of [0, 1, 2, 3, 4]) await c.reportComment(reader(n), commentId, 'HARASSMENT');
      const { post } = await t.data(COMMENTS_OF, { id: postId });
      expect(post).toEqual({ comments: [], commentsCount: 0 });
      const item = await c.itemOf(commentId);
      expect(item!.target).toEqual({
        __typename: 'Comment',
        id: commentId,
        text: 'Rude words',
        status: 'HIDDEN',
      });
      expect((await c.log()).find((entry) => entry.targetId === commentId)).toMatchObject({
        action: 'HIDE_COMMENT',
        actor: null,
        reason: 'auto-hidden after 5 reports',
      });
    });
  });

  describe('the queue', () => {
    it('should be for editors and admins alone', async () => {
      expect(outcomeOf(await t.gql(QUEUE))).toBe('UNAUTHENTICATED');
      for (const who of [author, c.contributor]) {
        expect(outcomeOf(await t.gql(QUEUE, {}, who.token))).toBe('FORBIDDEN');
      }
      for (const who of [c.editor, c.admin]) {
        expect(outcomeOf(await t.gql(QUEUE, {}, who.token))).toBe('ok');
      }
    });

    it('should group reports by target, oldest first, page by page', async () => {
      const postId = await c.post(author);
      const commentId = await c.comment(author, postId);
      await c.reportPost(reader(0), postId, 'HATE', 'Look at the second paragraph');
      await c.reportComment(reader(0), commentId, 'OFF_TOPIC');
      await c.reportPost(reader(1), postId, 'SPAM');
      await c.reportPost(reader(2), postId, 'HATE');
      const items = await c.queue();
      const mine = items.filter((item) => [postId, commentId].includes(item.target.id));
      expect(mine.map((item) => [item.target.__typename, item.reports, item.reasons])).toEqual([
        ['Post', 3, ['SPAM', 'HATE']],
        ['Comment', 1, ['OFF_TOPIC']],
      ]);
      expect(mine[0].reportList).toEqual([
        expect.objectContaining({ reason: 'HATE', note: 'Look at the second paragraph' }),
        expect.objectContaining({ reason: 'SPAM', note: null }),
        expect.objectContaining({ reason: 'HATE', note: null }),
      ]);
      const ids = items.map((item) => item.id);
      expect([...ids].sort()).toEqual(ids);

      const paged: string[] = [];
      let after: string | null = null;
      for (;;) {
        const { moderationQueue }: { moderationQueue: Page<Item> } = await t.data(
          QUEUE,
          { first: 2, after },
          c.editor.token,
        );
        expect(moderationQueue.totalCount).toBe(items.length);
        paged.push(...moderationQueue.edges.map((edge) => edge.node.id));
        if (!moderationQueue.pageInfo.hasNextPage) break;
        after = moderationQueue.pageInfo.endCursor;
      }
      expect(paged).toEqual(ids);
    });

    it('should list resolved items newest resolved first, and refuse a cursor of the other status', async () => {
      const first = await c.post(author);
      const second = await c.post(author);
      await c.reportPost(reader(5), first);
      await c.reportPost(reader(5), second);
      const [a, b] = [(await c.itemOf(first))!, (await c.itemOf(second))!];
      await c.resolve(c.admin, b.id, 'DISMISS');
      await c.resolve(c.admin, a.id, 'DISMISS');
      const resolved = await c.queue('RESOLVED');
      expect(resolved.slice(0, 2).map((item) => item.id)).toEqual([a.id, b.id]);
      expect(resolved[0]).toMatchObject({ status: 'RESOLVED', action: 'DISMISS' });

      const { moderationQueue } = await t.data(QUEUE, { first: 1 }, c.admin.token);
      const openCursor = moderationQueue.pageInfo.endCursor;
      const wrong = await t.gql(QUEUE, { status: 'RESOLVED', after: openCursor }, c.admin.token);
      expect(wrong).toMatchObject({
        errors: [{ extensions: { code: 'BAD_USER_INPUT', field: 'after' } }],
      });
      expect(outcomeOf(await t.gql(QUEUE, { after: 'bm9wZQ' }, c.admin.token))).toBe(
        'BAD_USER_INPUT',
      );
      const tooLarge = '{ moderationQueue(first: 101) { totalCount } }';
      expect(outcomeOf(await t.gql(tooLarge, {}, c.admin.token))).toBe('BAD_USER_INPUT');
    });

    it('should count resolved items as an expensive field, and open ones as a cheap one', async () => {
      const four = (status: string) =>
        `{ ${['a', 'b', 'c', 'd'].map((alias) => `${alias}: moderationQueue(status: ${status}, first: 0) { totalCount }`).join(' ')} }`;
      expect(outcomeOf(await t.gql(four('OPEN'), {}, c.admin.token))).toBe('ok');
      expect(await t.gql(four('RESOLVED'), {}, c.admin.token)).toMatchObject({
        errors: [{ extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'expensiveFields' } }],
      });
    });

    it('should leave out an item whose comment is gone', async () => {
      const postId = await c.post(author);
      const commentId = await c.comment(reader(6), postId);
      await c.reportComment(reader(5), commentId);
      const item = await c.itemOf(commentId);
      await t.data(DELETE_COMMENT, { id: commentId }, reader(6).token);
      expect(await c.itemOf(commentId)).toBeUndefined();
      expect(outcomeOf(await c.resolve(c.admin, item!.id, 'DISMISS'))).toBe('NOT_FOUND');
    });
  });

  describe('resolving', () => {
    /** An open item of a new post of `by`, reported by a reader. */
    const reportedPost = async (by = author, title = 'Reported') => {
      const postId = await c.post(by, title);
      await c.reportPost(await t.signUp(), postId, 'SPAM');
      return { postId, item: (await c.itemOf(postId))! };
    };
    const reportedComment = async (by = author) => {
      const postId = await c.post(author);
      const commentId = await c.comment(by, postId, 'Reported words');
      await c.reportComment(await t.signUp(), commentId, 'HATE');
      return { postId, commentId, item: (await c.itemOf(commentId))! };
    };
    const logOf = async (targetId: string) =>
      (await c.log()).filter((entry) => entry.targetId === targetId);

    it('should be for editors and admins alone, and only once', async () => {
      const { item } = await reportedPost();
      expect(outcomeOf(await c.resolve(undefined, item.id, 'DISMISS'))).toBe('UNAUTHENTICATED');
      for (const who of [author, c.contributor, reader(0)]) {
        expect(outcomeOf(await c.resolve(who, item.id, 'DISMISS'))).toBe('FORBIDDEN');
      }
      expect(outcomeOf(await c.resolve(c.admin, MISSING_ID, 'DISMISS'))).toBe('NOT_FOUND');
      expect(outcomeOf(await c.resolve(c.admin, 'nope', 'DISMISS'))).toBe('NOT_FOUND');
      expect(outcomeOf(await c.resolve(c.editor, item.id, 'DISMISS'))).toBe('ok');
      expect(await c.resolve(c.admin, item.id, 'HIDE')).toMatchObject({
        errors: [{ extensions: { code: 'CONFLICT' } }],
      });
    });

    it('should HIDE a post from readers, and record who and when', async () => {
      const { postId, item } = await reportedPost();
      const before = Date.now();
      const { resolveReport } = await t.data(
        RESOLVE,
        { id: item.id, action: 'HIDE' },
        c.editor.token,
      );
      expect(resolveReport).toMatchObject({
        status: 'RESOLVED',
        action: 'HIDE',
        resolvedBy: { id: c.editor.user.id },
        target: { __typename: 'Post', id: postId },
      });
      expect(Date.parse(resolveReport.resolvedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(await c.readable(postId)).toBe(false);
      expect(await logOf(postId)).toEqual([
        expect.objectContaining({
          action: 'HIDE_POST',
          reason: '1 report: SPAM',
          actor: { id: c.editor.user.id },
        }),
      ]);
      expect((await c.itemOf(postId, 'RESOLVED'))?.id).toBe(item.id);
    });

    it('should HIDE a comment from readers', async () => {
      const { postId, commentId, item } = await reportedComment();
      const { resolveReport } = await t.data(
        RESOLVE,
        { id: item.id, action: 'HIDE' },
        c.admin.token,
      );
      expect(resolveReport.target).toMatchObject({ id: commentId, status: 'HIDDEN' });
      expect((await t.data(COMMENTS_OF, { id: postId })).post.comments).toEqual([]);
      expect((await logOf(commentId)).map((entry) => entry.action)).toEqual(['HIDE_COMMENT']);
    });

    it('should DELETE a comment', async () => {
      const { postId, commentId, item } = await reportedComment();
      const { resolveReport } = await t.data(
        RESOLVE,
        { id: item.id, action: 'DELETE' },
        c.editor.token,
      );
      expect(resolveReport).toMatchObject({
        action: 'DELETE',
        target: { id: commentId, status: 'DELETED', text: '' },
      });
      expect((await t.data(COMMENTS_OF, { id: postId }, c.admin.token)).post.comments).toEqual([]);
      expect(await logOf(commentId)).toEqual([
        expect.objectContaining({ action: 'DELETE_COMMENT', summary: 'Reported words' }),
      ]);
    });

    it('should DELETE a post, and keep its log entry', async () => {
      const { postId, item } = await reportedPost(author, 'Doomed');
      const { resolveReport } = await t.data(
        RESOLVE,
        { id: item.id, action: 'DELETE' },
        c.admin.token,
      );
      expect(resolveReport).toMatchObject({
        status: 'RESOLVED',
        action: 'DELETE',
        target: { __typename: 'Post', id: postId, title: 'Doomed' },
      });
      expect((await t.data(POST_BY_ID, { id: postId }, c.admin.token)).post).toBeNull();
      expect(await logOf(postId)).toEqual([
        expect.objectContaining({ action: 'DELETE_POST', summary: 'Doomed', targetType: 'POST' }),
      ]);
    });

    it('should BAN_AUTHOR: banned for good, unable to write, the target hidden', async () => {
      const spammer = await t.signUp({ name: 'Spammer' });
      const { postId, item } = await reportedPost(spammer, 'Buy now');
      await c.reportPost(reader(1), postId, 'ILLEGAL');
      const { resolveReport } = await t.data(
        RESOLVE,
        { id: item.id, action: 'BAN_AUTHOR' },
        c.editor.token,
      );
      expect(resolveReport).toMatchObject({ action: 'BAN_AUTHOR', status: 'RESOLVED' });
      expect(await c.readable(postId)).toBe(false);
      const refused = await t.gql(
        CREATE_POST,
        { input: { title: 'More', content: 'Words' } },
        spammer.token,
      );
      expect(refused).toMatchObject({ errors: [{ extensions: { code: 'FORBIDDEN' } }] });
      expect(refused.errors![0].message).toContain('SPAM, ILLEGAL');
      const [ban] = (await c.log()).filter((entry) => entry.targetId === spammer.user.id);
      expect(ban).toMatchObject({
        action: 'BAN_USER',
        targetType: 'USER',
        actor: { id: c.editor.user.id },
        reason: 'Your post was reported for SPAM, ILLEGAL.',
      });
      expect((await logOf(postId)).map((entry) => entry.action)).toEqual(['HIDE_POST']);
    });

    it('should let an editor ban neither an editor nor an admin, and nobody an admin', async () => {
      const otherEditor = await t.signUp({ name: 'Other editor' });
      await t.data(SET_ROLE, { userId: otherEditor.user.id, role: 'EDITOR' }, c.admin.token);
      const otherAdmin = await t.signUp({ name: 'Other admin' });
      await t.makeAdmin(otherAdmin.user.id);
      const ofEditor = await reportedPost(otherEditor);
      const ofAdmin = await reportedPost(otherAdmin);
      const ofSelf = await reportedPost(c.editor);
      expect(outcomeOf(await c.resolve(c.editor, ofEditor.item.id, 'BAN_AUTHOR'))).toBe(
        'FORBIDDEN',
      );
      expect(outcomeOf(await c.resolve(c.editor, ofAdmin.item.id, 'BAN_AUTHOR'))).toBe('FORBIDDEN');
      expect(outcomeOf(await c.resolve(c.admin, ofAdmin.item.id, 'BAN_AUTHOR'))).toBe('FORBIDDEN');
      expect(outcomeOf(await c.resolve(c.editor, ofSelf.item.id, 'BAN_AUTHOR'))).toBe(
        'BAD_USER_INPUT',
      );
      // Refused, the items stay open.
      expect((await c.itemOf(ofEditor.postId))?.status).toBe('OPEN');
      expect(outcomeOf(await c.resolve(c.admin, ofEditor.item.id, 'BAN_AUTHOR'))).toBe('ok');
    });
  });
});

describe('A page of the moderation queue (e2e)', () => {
  let c: Community;

  beforeAll(async () => {
    c = await community({ REPORTS_PER_HOUR: '100' });
    const authors = [await c.t.signUp(), await c.t.signUp()];
    const reporters = [await c.t.signUp(), await c.t.signUp(), await c.t.signUp()];
    // 32 items, posts and comments taking turns, reported by up to three readers each.
    for (let n = 0; n < 16; n++) {
      const postId = await c.post(authors[n % 2], `Post ${n}`);
      const commentId = await c.comment(authors[(n + 1) % 2], postId, `Comment ${n}`);
      for (const reporter of reporters.slice(0, 1 + (n % 3))) {
        await c.reportPost(reporter, postId, n % 2 ? 'SPAM' : 'HATE', 'A note');
        await c.reportComment(reporter, commentId, 'OFF_TOPIC');
      }
    }
  });
  afterAll(() => c.t.close());

  it('should take as many statements for 30 items as for 10', async () => {
    const page = (first: number) =>
      c.t.counted(
        `query ($first: Int) { moderationQueue(first: $first) { totalCount edges { node {
          ${ITEM} target { ... on Post { author { handle } } ... on Comment { author { handle } post { id } } }
          reportList { reporter { handle } } } } } }`,
        { first },
        c.admin.token,
      );
    const ten = await page(10);
    const thirty = await page(30);
    expect(ten.data.moderationQueue.edges).toHaveLength(10);
    expect(thirty.data.moderationQueue.edges).toHaveLength(30);
    expect(thirty.count).toBe(ten.count);
  });
});
