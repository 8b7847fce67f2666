import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'graphql-ws';
import { DataSource } from 'typeorm';

import { blogMigrations } from '../src/blog';
import { BlogEvent } from '../src/blog/events/blog-events';
import { loadAuthConfig, loadDatabaseConfig } from '../src/config';
import { createPostgresDatabase, testDatabase } from './helpers/databases';
import { ADD_COMMENT, MISSING_ID } from './helpers/documents';
import { GraphQLResponse, TestApp, TestUser } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';
import { buildDataSourceOptions } from '../src/database/data-source-options';

/**
 * Issue 65, roles and editorial review: who may publish, review, reject and give roles; what
 * each role sees of a post under review; the migration of the old roles; the role of new
 * accounts; and the write allowance of new accounts.
 */

const ROLE_OF = `query ($id: ID!) { user(id: $id) { role } }`;
const SET_ROLE = `mutation ($userId: ID!, $role: Role!) { setUserRole(userId: $userId, role: $role) { id role } }`;
const CREATE = `mutation ($input: CreatePostInput!) { createPost(input: $input) { id status reviewState } }`;
const REVIEW_FIELDS = 'id status reviewState rejectionReason';
const POST = `query ($id: ID!) { post(id: $id) { ${REVIEW_FIELDS} title content } }`;
const SUBMIT = `mutation ($id: ID!) { submitPostForReview(id: $id) { ${REVIEW_FIELDS} } }`;
const REJECT = `mutation ($id: ID!, $reason: String!) { rejectPost(id: $id, reason: $reason) { ${REVIEW_FIELDS} } }`;
const PUBLISH = `mutation ($id: ID!) { publishPost(id: $id) { ${REVIEW_FIELDS} } }`;
const QUEUE = `query ($first: Int, $after: String) { postsAwaitingReview(first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id reviewState author { role } } } } }`;
const FUTURE = '2099-01-01T00:00:00.000Z';

type Who = 'ANONYMOUS' | 'CONTRIBUTOR' | 'AUTHOR' | 'EDITOR' | 'ADMIN';
const EVERYONE: Who[] = ['ANONYMOUS', 'CONTRIBUTOR', 'AUTHOR', 'EDITOR', 'ADMIN'];

/** A timestamp as a raw statement binds it: a Date on PostgreSQL, UTC text on SQLite. */
const stamp = (dataSource: DataSource, at: Date) =>
  dataSource.options.type === 'postgres' ? at : at.toISOString().replace('T', ' ').replace('Z', '');

/** `ok`, or the code of the first error. */
const outcomeOf = (response: GraphQLResponse) =>
  response.errors?.length ? (response.errors[0].extensions?.code ?? 'error') : 'ok';

describe('Roles and editorial review (e2e)', () => {
  let t: TestApp;
  let url: string;
  const users = {} as Record<Exclude<Who, 'ANONYMOUS'>, TestUser>;
  /** Someone else: an author whose posts and comments the others act on. */
  let bystander: TestUser;
  /** A contributor whose drafts wait for review. */
  let pitcher: TestUser;
  const clients: Client[] = [];

  const tokenOf = (who: Who) => (who === 'ANONYMOUS' ? undefined : users[who].token);
  const idOf = (who: Exclude<Who, 'ANONYMOUS'>) => users[who].user.id;
  const as = (who: Who, query: string, variables: Record<string, unknown> = {}) =>
    t.gql(query, variables, tokenOf(who));

  /** A new post of `author`: a draft unless `publish`. */
  const postOf = async (author: TestUser, publish = false): Promise<string> =>
    (await t.data(CREATE, { input: { title: 'A post', content: 'Words', publish } }, author.token))
      .createPost.id;

  /** A draft of `pitcher`, waiting for review. */
  const submitted = async (): Promise<string> => {
    const id = await postOf(pitcher);
    await t.data(SUBMIT, { id }, pitcher.token);
    return id;
  };

  /** A post of `who` as the admin made it for them: published, whatever their role. */
  const publishedFor = async (who: TestUser): Promise<string> =>
    (
      await t.data(
        'mutation ($a: ID!) { createPost(title: "Theirs", content: "Words", authorId: $a) { id } }',
        { a: who.user.id },
        users.ADMIN.token,
      )
    ).createPost.id;

  beforeAll(async () => {
    t = await TestApp.start();
    url = (await t.listen()).ws;
    for (const role of ['CONTRIBUTOR', 'AUTHOR', 'EDITOR', 'ADMIN'] as const) {
      users[role] = await t.signUp({ name: `The ${role.toLowerCase()}` });
    }
    bystander = await t.signUp({ name: 'Bystander' });
    pitcher = await t.signUp({ name: 'Pitcher' });
    await t.makeAdmin(idOf('ADMIN'));
    for (const [user, role] of [
      [users.EDITOR, 'EDITOR'],
      [users.CONTRIBUTOR, 'CONTRIBUTOR'],
      [pitcher, 'CONTRIBUTOR'],
    ] as const) {
      await t.data(SET_ROLE, { userId: user.user.id, role }, users.ADMIN.token);
    }
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  afterAll(() => t.close());

  describe('every role against every action', () => {
    /** What each action needs before it runs for `who`, and the action itself. */
    type Action = (who: Who) => Promise<GraphQLResponse>;
    const own = async (who: Who, make: (author: TestUser) => Promise<string>) =>
      who === 'ANONYMOUS' ? make(bystander) : make(users[who]);

    // prettier-ignore
    const ACTIONS: [string, Action, Record<Who, string>][] = [
      [
        'createPost, published',
        (who) => as(who, CREATE, { input: { title: 'Now', content: 'Words' } }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'ok', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'createPost, scheduled',
        (who) =>
          as(who, CREATE, {
            input: { title: 'Later', content: 'Words', publish: false, publishAt: FUTURE },
          }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'ok', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'createPost, a draft',
        (who) => as(who, CREATE, { input: { title: 'Draft', content: 'Words', publish: false } }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'ok', AUTHOR: 'ok', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'createPost, the server form',
        (who) =>
          as(who, 'mutation { createPost(title: "Flat", content: "Words") { id } }'),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'ok', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'publishPost, own draft',
        async (who) => as(who, PUBLISH, { id: await own(who, (a) => postOf(a)) }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'ok', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'schedulePost, own draft',
        async (who) =>
          as(who, 'mutation ($id: ID!, $at: DateTime!) { schedulePost(id: $id, at: $at) { id } }', {
            id: await own(who, (a) => postOf(a)),
            at: FUTURE,
          }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'ok', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'unpublishPost, own post',
        async (who) =>
          as(who, 'mutation ($id: ID!) { unpublishPost(id: $id) { id } }', {
            id: await own(who, publishedFor),
          }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'ok', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'submitPostForReview, own draft',
        async (who) => as(who, SUBMIT, { id: await own(who, (a) => postOf(a)) }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'ok', AUTHOR: 'ok', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        "publishPost, another's post awaiting review",
        async (who) => as(who, PUBLISH, { id: await submitted() }),
        // Authors and contributors cannot see another's draft at all.
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'NOT_FOUND', AUTHOR: 'NOT_FOUND', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        "unpublishPost, another's post",
        async (who) =>
          as(who, 'mutation ($id: ID!) { unpublishPost(id: $id) { id } }', {
            id: await postOf(bystander, true),
          }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'FORBIDDEN', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'postsAwaitingReview',
        (who) => as(who, QUEUE),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'FORBIDDEN', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'rejectPost',
        async (who) => as(who, REJECT, { id: await submitted(), reason: 'Not yet.' }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'FORBIDDEN', EDITOR: 'ok', ADMIN: 'ok' },
      ],
      [
        'setUserRole',
        (who) => as(who, SET_ROLE, { userId: bystander.user.id, role: 'AUTHOR' }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'FORBIDDEN', EDITOR: 'FORBIDDEN', ADMIN: 'ok' },
      ],
      [
        "updatePost, another's post",
        async (who) =>
          as(who, 'mutation ($id: ID!) { updatePost(id: $id, input: {title: "Mine"}) { id } }', {
            id: await postOf(bystander, true),
          }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'FORBIDDEN', EDITOR: 'FORBIDDEN', ADMIN: 'ok' },
      ],
      [
        "deletePost, another's post",
        async (who) =>
          as(who, 'mutation ($id: ID!) { deletePost(id: $id) }', { id: await postOf(bystander, true) }),
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'FORBIDDEN', EDITOR: 'FORBIDDEN', ADMIN: 'ok' },
      ],
      [
        "deleteComment, another's on another's post",
        async (who) => {
          const postId = await postOf(bystander, true);
          const { addComment } = await t.data(ADD_COMMENT, { postId, text: 'Hi' }, pitcher.token);
          return as(who, 'mutation ($id: ID!) { deleteComment(id: $id) }', { id: addComment.id });
        },
        // Editors count as moderators.
        { ANONYMOUS: 'UNAUTHENTICATED', CONTRIBUTOR: 'FORBIDDEN', AUTHOR: 'FORBIDDEN', EDITOR: 'ok', ADMIN: 'ok' },
      ],
    ];

    it.each(ACTIONS)('%s', async (_name, action, expected) => {
      const outcomes = {} as Record<Who, string>;
      for (const who of EVERYONE) outcomes[who] = outcomeOf(await action(who));
      expect(outcomes).toEqual(expected);
    });
  });

  it('should show every user their role, to everyone, and give new accounts AUTHOR', async () => {
    for (const [who, role] of [
      ['CONTRIBUTOR', 'CONTRIBUTOR'],
      ['AUTHOR', 'AUTHOR'],
      ['EDITOR', 'EDITOR'],
      ['ADMIN', 'ADMIN'],
    ] as const) {
      expect((await t.data(ROLE_OF, { id: idOf(who) })).user.role).toBe(role);
    }
    const { signUp } = await t.data(
      'mutation { signUp(input: {name: "Newcomer", email: "newcomer@example.com", password: "long enough pw"}) { user { role } } }',
    );
    expect(signUp.user.role).toBe('AUTHOR');
  });

  it('should tell a contributor who tries to publish to submit the post for review', async () => {
    const id = await postOf(users.CONTRIBUTOR);
    const { errors } = await as('CONTRIBUTOR', PUBLISH, { id });
    expect(errors?.[0]).toMatchObject({
      message: expect.stringContaining('submitPostForReview'),
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('should take a draft through review: submitted, seen by editors, rejected, resubmitted, published', async () => {
    const id = await postOf(pitcher);
    const seenBy = async (token?: string) => (await t.gql(POST, { id }, token)).data?.post;

    expect(await seenBy(users.EDITOR.token)).toBeNull();
    const { submitPostForReview } = await t.data(SUBMIT, { id }, pitcher.token);
    expect(submitPostForReview).toEqual({
      id,
      status: 'DRAFT',
      reviewState: 'AWAITING_REVIEW',
      rejectionReason: null,
    });
    // Editors and admins read it, content included; other members and visitors do not.
    for (const token of [users.EDITOR.token, users.ADMIN.token, pitcher.token]) {
      expect(await seenBy(token)).toMatchObject({
        reviewState: 'AWAITING_REVIEW',
        content: 'Words',
      });
    }
    for (const token of [users.AUTHOR.token, users.CONTRIBUTOR.token, undefined]) {
      expect(await seenBy(token)).toBeNull();
    }
    const withComments = `query ($id: ID!) { post(id: $id) { id comments { id } } }`;
    expect((await t.data(withComments, { id }, users.EDITOR.token)).post).toEqual({
      id,
      comments: [],
    });

    const { rejectPost } = await t.data(
      REJECT,
      { id, reason: '  Cite your sources.  ' },
      users.EDITOR.token,
    );
    expect(rejectPost).toMatchObject({
      reviewState: 'REJECTED',
      rejectionReason: 'Cite your sources.',
    });
    expect(await seenBy(pitcher.token)).toMatchObject({
      status: 'DRAFT',
      reviewState: 'REJECTED',
      rejectionReason: 'Cite your sources.',
    });
    // Back to a private draft: the editor no longer sees it, the admin still does.
    expect(await seenBy(users.EDITOR.token)).toBeNull();
    expect(await seenBy(users.ADMIN.token)).toMatchObject({
      rejectionReason: 'Cite your sources.',
    });

    expect((await t.data(SUBMIT, { id }, pitcher.token)).submitPostForReview).toMatchObject({
      reviewState: 'AWAITING_REVIEW',
      rejectionReason: null,
    });
    expect((await t.data(PUBLISH, { id }, users.EDITOR.token)).publishPost).toEqual({
      id,
      status: 'PUBLISHED',
      reviewState: 'NONE',
      rejectionReason: null,
    });
    // Published: anyone reads it, and the review fields stay the author's and editors'.
    expect(await seenBy()).toMatchObject({ status: 'PUBLISHED', reviewState: null });
    expect(await seenBy(users.AUTHOR.token)).toMatchObject({ reviewState: null });
    expect(await seenBy(pitcher.token)).toMatchObject({ reviewState: 'NONE' });
    const queued = (await t.data(QUEUE, { first: 100 }, users.EDITOR.token)).postsAwaitingReview;
    expect(queued.edges.map((edge: { node: { id: string } }) => edge.node.id)).not.toContain(id);
  });

  it('should page the review queue oldest submission first, a resubmission going last', async () => {
    const fresh = await TestApp.start();
    try {
      const admin = await fresh.signUp();
      await fresh.makeAdmin(admin.user.id);
      const writer = await fresh.signUp();
      const ids: string[] = [];
      for (let n = 0; n < 3; n++) {
        const { createPost } = await fresh.data(
          CREATE,
          { input: { title: `Pitch ${n}`, content: 'Words', publish: false } },
          writer.token,
        );
        await fresh.data(SUBMIT, { id: createPost.id }, writer.token);
        ids.push(createPost.id);
      }
      // The first is rejected and submitted again: it goes to the end of the queue.
      await fresh.data(REJECT, { id: ids[0], reason: 'Again.' }, admin.token);
      await fresh.data(SUBMIT, { id: ids[0] }, writer.token);

      const first = (await fresh.data(QUEUE, { first: 2 }, admin.token)).postsAwaitingReview;
      expect(first.totalCount).toBe(3);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = (
        await fresh.data(QUEUE, { first: 2, after: first.pageInfo.endCursor }, admin.token)
      ).postsAwaitingReview;
      expect(second.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
      const order = [...first.edges, ...second.edges].map(
        (edge: { node: { id: string } }) => edge.node.id,
      );
      expect(order).toEqual([ids[1], ids[2], ids[0]]);
      expect(first.edges[0].node).toMatchObject({ reviewState: 'AWAITING_REVIEW' });

      const bad = await fresh.gql(QUEUE, { after: 'not a cursor' }, admin.token);
      expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    } finally {
      await fresh.close();
    }
  });

  it('should read the queue in a flat number of statements, whatever its page size', async () => {
    for (let n = 0; n < 4; n++) await submitted();
    const page = `query ($first: Int) { postsAwaitingReview(first: $first) { totalCount
      edges { node { id title reviewState rejectionReason tags likesCount commentsCount author { handle role } } } } }`;
    const small = await t.counted(page, { first: 1 }, users.EDITOR.token);
    const large = await t.counted(page, { first: 4 }, users.EDITOR.token);
    expect(large.data.postsAwaitingReview.edges).toHaveLength(4);
    expect(large.count).toBe(small.count);
  });

  it('should refuse a blank or long reason, and a post that awaits no review', async () => {
    const id = await submitted();
    for (const reason of ['   ', 'x'.repeat(501)]) {
      const { errors } = await as('EDITOR', REJECT, { id, reason });
      expect(errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'reason' });
    }
    expect(outcomeOf(await as('EDITOR', REJECT, { id, reason: 'x'.repeat(500) }))).toBe('ok');
    // Rejected, it is a private draft again: the editor no longer sees it, the admin does.
    expect(outcomeOf(await as('EDITOR', REJECT, { id, reason: 'Twice' }))).toBe('NOT_FOUND');
    const again = await as('ADMIN', REJECT, { id, reason: 'Twice' });
    expect(again.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
    const published = await as('EDITOR', REJECT, {
      id: await postOf(bystander, true),
      reason: 'Too late',
    });
    expect(published.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
    const missing = await as('EDITOR', REJECT, { id: MISSING_ID, reason: 'Gone' });
    expect(outcomeOf(missing)).toBe('NOT_FOUND');
  });

  it("should refuse to submit a published or scheduled post, or someone else's", async () => {
    const published = await postOf(users.AUTHOR, true);
    expect((await as('AUTHOR', SUBMIT, { id: published })).errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'id',
    });
    const { createPost } = await t.data(
      CREATE,
      { input: { title: 'Later', content: 'x', publish: false, publishAt: FUTURE } },
      users.AUTHOR.token,
    );
    expect(outcomeOf(await as('AUTHOR', SUBMIT, { id: createPost.id }))).toBe('BAD_USER_INPUT');
    const draft = await postOf(users.AUTHOR);
    expect(outcomeOf(await as('ADMIN', SUBMIT, { id: draft }))).toBe('FORBIDDEN');
    expect(outcomeOf(await as('EDITOR', SUBMIT, { id: draft }))).toBe('NOT_FOUND');
  });

  it('should let a scheduled, reviewed post be taken back by its contributor', async () => {
    const id = await submitted();
    const scheduled = await t.data(
      `mutation ($id: ID!) { schedulePost(id: $id, at: "${FUTURE}") { status reviewState } }`,
      { id },
      users.EDITOR.token,
    );
    expect(scheduled.schedulePost).toEqual({ status: 'SCHEDULED', reviewState: 'NONE' });
    const unscheduled = await t.data(
      'mutation ($id: ID!) { unschedulePost(id: $id) { status } }',
      { id },
      pitcher.token,
    );
    expect(unscheduled.unschedulePost.status).toBe('DRAFT');
  });

  describe('setUserRole', () => {
    it('should answer NOT_FOUND for an unknown user and refuse a role that is not one', async () => {
      expect(outcomeOf(await as('ADMIN', SET_ROLE, { userId: MISSING_ID, role: 'EDITOR' }))).toBe(
        'NOT_FOUND',
      );
      const bad = await as('ADMIN', SET_ROLE, { userId: bystander.user.id, role: 'OWNER' });
      expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('should refuse to demote the last admin, and allow it once there is another', async () => {
      const fresh = await TestApp.start();
      try {
        const [ada, bea] = [await fresh.signUp(), await fresh.signUp()];
        await fresh.makeAdmin(ada.user.id);
        const refused = await fresh.gql(
          SET_ROLE,
          { userId: ada.user.id, role: 'EDITOR' },
          ada.token,
        );
        expect(refused.errors?.[0]).toMatchObject({
          message: expect.stringContaining('last admin'),
          extensions: { code: 'CONFLICT', field: 'role' },
        });
        expect((await fresh.data(ROLE_OF, { id: ada.user.id })).user.role).toBe('ADMIN');

        await fresh.data(SET_ROLE, { userId: bea.user.id, role: 'ADMIN' }, ada.token);
        // Two admins demoting each other at once: one of them stays. The other request is
        // CONFLICT when both ran together, FORBIDDEN when it began after the first one's change.
        const answers = await Promise.all([
          fresh.gql(SET_ROLE, { userId: bea.user.id, role: 'AUTHOR' }, ada.token),
          fresh.gql(SET_ROLE, { userId: ada.user.id, role: 'AUTHOR' }, bea.token),
        ]);
        const outcomes = answers.map(outcomeOf);
        expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([
          expect.stringMatching(/^(CONFLICT|FORBIDDEN)$/),
        ]);
        const roles = [
          (await fresh.data(ROLE_OF, { id: ada.user.id })).user.role,
          (await fresh.data(ROLE_OF, { id: bea.user.id })).user.role,
        ];
        expect(roles.sort()).toEqual(['ADMIN', 'AUTHOR']);
      } finally {
        await fresh.close();
      }
    });

    it('should take effect at the next request, a demoted editor losing the queue', async () => {
      const editor = await t.signUp();
      await t.data(SET_ROLE, { userId: editor.user.id, role: 'EDITOR' }, users.ADMIN.token);
      expect(outcomeOf(await t.gql(QUEUE, {}, editor.token))).toBe('ok');
      await t.data(SET_ROLE, { userId: editor.user.id, role: 'AUTHOR' }, users.ADMIN.token);
      expect(outcomeOf(await t.gql(QUEUE, {}, editor.token))).toBe('FORBIDDEN');
    });
  });

  it('should mask the review state on the WebSocket as on HTTP, and show the role to everyone', async () => {
    const subscription = 'subscription { postCreated { id reviewState author { role } } }';
    const asEditor = collect(connectWs(users.EDITOR.token), subscription);
    const asVisitor = collect(connectWs(), subscription);
    await t.untilSubscribed(BlogEvent.PostPublished, 2);
    const id = await submitted();
    await t.data(PUBLISH, { id }, users.EDITOR.token);
    const [[editorSees], [visitorSees]] = await Promise.all([asEditor.next(1), asVisitor.next(1)]);
    expect(editorSees.data?.postCreated).toEqual({
      id,
      reviewState: 'NONE',
      author: { role: 'CONTRIBUTOR' },
    });
    expect(visitorSees.data?.postCreated).toEqual({
      id,
      reviewState: null,
      author: { role: 'CONTRIBUTOR' },
    });
  });

  function connectWs(authorization?: string): Client {
    const { client } = wsClient(url, authorization);
    clients.push(client);
    return client;
  }
});

describe('SIGN_UP_ROLE (e2e)', () => {
  it('should give new accounts the role it names', async () => {
    const t = await TestApp.start({ env: { SIGN_UP_ROLE: 'CONTRIBUTOR' } });
    try {
      const writer = await t.signUp();
      expect((await t.data(ROLE_OF, { id: writer.user.id })).user.role).toBe('CONTRIBUTOR');
      const published = await t.gql(CREATE, { input: { title: 'T', content: 'C' } }, writer.token);
      expect(outcomeOf(published)).toBe('FORBIDDEN');
      const draft = await t.data(
        CREATE,
        { input: { title: 'T', content: 'C', publish: false } },
        writer.token,
      );
      const { submitPostForReview } = await t.data(
        SUBMIT,
        { id: draft.createPost.id },
        writer.token,
      );
      expect(submitPostForReview.reviewState).toBe('AWAITING_REVIEW');
    } finally {
      await t.close();
    }
  });

  it('should refuse ADMIN and anything that is not a role', () => {
    expect(() => loadAuthConfig({ SIGN_UP_ROLE: 'ADMIN', JWT_SECRET: 'x'.repeat(32) })).toThrow(
      /SIGN_UP_ROLE: expected one of AUTHOR, CONTRIBUTOR, EDITOR, got "ADMIN"/,
    );
    expect(() => loadAuthConfig({ SIGN_UP_ROLE: 'author', JWT_SECRET: 'x'.repeat(32) })).toThrow(
      /SIGN_UP_ROLE/,
    );
  });
});

/** Where the write counters live: in process, and in Redis when the run has one. */
const WRITE_COUNTERS: [string, Record<string, string>][] = [['in process', {}]];
if (process.env.TEST_REDIS_URL) {
  WRITE_COUNTERS.push([
    'in Redis',
    {
      REDIS_URL: process.env.TEST_REDIS_URL,
      REDIS_PREFIX: `blog-e2e-roles-${Date.now()}-${process.pid}:`,
    },
  ]);
}

describe.each(WRITE_COUNTERS)('New-account friction, counters %s (e2e)', (_where, counters) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({
      env: { RATE_LIMIT_WRITES_PER_MINUTE: '20', NEW_ACCOUNT_HOURS: '24', ...counters },
    });
  });
  afterAll(() => t.close());

  const write = (user: TestUser, n: number) =>
    t.gql(CREATE, { input: { title: `Post ${n}`, content: 'Words' } }, user.token);

  it("should refuse a new account's third write in a minute, with 20 writes a minute", async () => {
    const fresh = await t.signUp();
    expect(outcomeOf(await write(fresh, 1))).toBe('ok');
    expect(outcomeOf(await write(fresh, 2))).toBe('ok');
    const third = await t.reply(CREATE, { input: { title: 'Third', content: 'x' } }, fresh.token);
    expect(third.status).toBe(429);
    const errors = (third.body as GraphQLResponse).errors;
    expect(errors?.[0].extensions).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(errors?.[0].message).toContain('younger than 24 hours');
  });

  it('should refuse a new account two writes at once when it has one left, writing neither', async () => {
    const fresh = await t.signUp();
    expect(outcomeOf(await write(fresh, 1))).toBe('ok');
    const both = await t.gql(
      'mutation { a: createPost(input: {title: "A", content: "x"}) { id } b: createPost(input: {title: "B", content: "x"}) { id } }',
      {},
      fresh.token,
    );
    expect(outcomeOf(both)).toBe('TOO_MANY_REQUESTS');
    expect(outcomeOf(await write(fresh, 2))).toBe('ok');
  });

  it('should give an account older than NEW_ACCOUNT_HOURS the whole allowance', async () => {
    const older = await t.signUp();
    const dayAndAHourAgo = new Date(Date.now() - 25 * 3_600_000);
    await t.dataSource.query(
      t.dataSource.options.type === 'postgres'
        ? 'UPDATE users SET created_at = $1 WHERE id = $2'
        : 'UPDATE users SET created_at = ? WHERE id = ?',
      [stamp(t.dataSource, dayAndAHourAgo), older.user.id],
    );
    for (let n = 1; n <= 5; n++) expect(outcomeOf(await write(older, n))).toBe('ok');
  });
});

describe('The migration of roles (e2e)', () => {
  const upToRoles = blogMigrations.slice(
    0,
    blogMigrations.findIndex((migration) => migration.name === 'UserRoles1765007000000') + 1,
  );
  let url: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (testDatabase() === 'postgres') {
      const database = await createPostgresDatabase();
      url = database.url;
      cleanup = database.drop;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'blog-roles-'));
      url = `sqlite:${join(dir, 'roles.sqlite')}`;
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(() => cleanup?.());

  const open = (migrations: typeof blogMigrations) =>
    new DataSource({
      ...buildDataSourceOptions(loadDatabaseConfig({ DATABASE_URL: url })),
      migrations,
    }).initialize();

  it("should make every 'user' an author and keep every admin, and map them back on revert", async () => {
    expect(upToRoles.length).toBeGreaterThan(1);
    const before = await open(upToRoles.slice(0, -1));
    const postgres = before.options.type === 'postgres';
    const now = stamp(before, new Date());
    const p = (n: number) => (postgres ? `$${n}` : '?');
    const insertUser = async (id: string, handle: string, role: string) =>
      before.query(
        'INSERT INTO users (id, name, email, handle, password_hash, role, token_version, created_at, updated_at) ' +
          `VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, 'x', ${p(5)}, 0, ${p(6)}, ${p(7)})`,
        [id, handle, `${handle}@example.com`, handle, role, now, now],
      );
    const user = '01920000-0000-7000-8000-00000000a001';
    const admin = '01920000-0000-7000-8000-00000000a002';
    try {
      await before.runMigrations({ transaction: 'each' });
      await insertUser(user, 'old_user', 'user');
      await insertUser(admin, 'old_admin', 'admin');
      await before.query(
        'INSERT INTO posts (id, title, content, author_id, created_at, updated_at, published_at, slug) ' +
          `VALUES (${p(1)}, 'Kept', 'Kept', ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, 'kept')`,
        ['01920000-0000-7000-8000-00000000b001', user, now, now, now],
      );
    } finally {
      await before.destroy();
    }

    const after = await open(upToRoles);
    try {
      await after.runMigrations({ transaction: 'each' });
      const roles = async () =>
        Object.fromEntries(
          (
            (await after.query('SELECT handle, role FROM users ORDER BY handle')) as {
              handle: string;
              role: string;
            }[]
          ).map(({ handle, role }) => [handle, role]),
        );
      const posts = async () => Number((await after.query('SELECT COUNT(*) AS n FROM posts'))[0].n);
      expect(await roles()).toEqual({ old_admin: 'admin', old_user: 'author' });
      // The users table was rebuilt on SQLite: the rows pointing to it stay.
      expect(await posts()).toBe(1);
      // A row written without a role is an author.
      await after.query(
        'INSERT INTO users (id, name, email, handle, password_hash, token_version, created_at, updated_at) ' +
          `VALUES (${p(1)}, 'New', 'new@example.com', 'new_one', 'x', 0, ${p(2)}, ${p(3)})`,
        ['01920000-0000-7000-8000-00000000a003', now, now],
      );
      expect((await roles()).new_one).toBe('author');
      const reviewColumns = await after.query(
        "SELECT review_state, review_requested_at, rejection_reason FROM posts WHERE slug = 'kept'",
      );
      expect(reviewColumns).toEqual([
        { review_state: null, review_requested_at: null, rejection_reason: null },
      ]);

      await after.query(`UPDATE users SET role = 'editor' WHERE handle = 'new_one'`);
      await after.undoLastMigration({ transaction: 'each' });
      expect(await roles()).toEqual({ new_one: 'user', old_admin: 'admin', old_user: 'user' });
      expect(await posts()).toBe(1);
      await expect(after.query('SELECT review_state FROM posts')).rejects.toThrow();
    } finally {
      await after.destroy();
    }
  });
});
