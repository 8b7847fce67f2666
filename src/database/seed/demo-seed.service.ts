import { randomBytes } from 'node:crypto';

import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import {
  AuthService,
  BLOG_MODULE_OPTIONS,
  BlogModuleOptions,
  CommentsService,
  FollowsService,
  LikesService,
  Post,
  PostsService,
  ReportReason,
  ReportsService,
  Role,
  User,
  UsersService,
} from '../../blog';
import { appConfig } from '../../config/app.config';
import { isLoopbackHost } from '../../config/host';

/** The demo's password in the README, for a service that only this machine can reach. */
export const DEMO_PASSWORD = 'demo-password';

const DEMO_USERS = [
  { name: 'Ada Lovelace', email: 'ada@example.com', handle: 'ada' },
  { name: 'Grace Hopper', email: 'grace@example.com', handle: 'grace' },
  { name: 'Alan Turing', email: 'alan@example.com', handle: 'alan' },
  { name: 'Charles Babbage', email: 'charles@example.com', handle: 'charles' },
  { name: 'Mallory Spammer', email: 'mallory@example.com', handle: 'mallory' },
];

const ADA = 0;
const GRACE = 1;
const ALAN = 2;
const CHARLES = 3;
const MALLORY = 4;

/** A contributor's draft, waiting in the editors' review queue. */
const DRAFT_FOR_REVIEW = {
  author: CHARLES,
  title: 'The Difference Engine, revisited',
  content: '## A second attempt\n\nThis time with fewer parts, and a budget.',
};

const DEMO_POSTS = [
  {
    author: ADA,
    title: 'Notes on the Analytical Engine',
    content: [
      'It weaves algebraic patterns, as the Jacquard loom weaves flowers and leaves.',
      '',
      '## The operations',
      '',
      '| Card | What it does |',
      '| ---- | ------------ |',
      '| Operation | adds, subtracts, multiplies or divides |',
      '| Variable | names the column a number is read from |',
      '',
      '## Note G',
      '',
      'The Bernoulli numbers, step by step:',
      '',
      '```js',
      'const B = (n) => (n === 0 ? 1 : -sum(n) / (n + 1));',
      '```',
      '',
      'The engine *has no pretensions to originate anything*.',
    ].join('\n'),
    tags: ['History', 'Computing'],
    coverImage: {
      url: 'https://images.example.com/analytical-engine.jpg',
      alt: 'The Analytical Engine’s mill',
      caption: 'A trial model of the mill',
    },
  },
  {
    author: GRACE,
    title: 'Finding the first bug',
    content: 'A moth, taped into the log book.',
    tags: ['History', 'Debugging'],
  },
  {
    author: ALAN,
    title: 'Can machines think?',
    content: 'I propose to consider the question.',
    tags: ['AI'],
  },
  {
    author: ADA,
    title: 'Poetical science',
    content: 'Imagination is the discovering faculty.',
    tags: ['Poetry'],
  },
  {
    author: GRACE,
    title: 'Compilers for everyone',
    content: 'Programs in English-like words.',
    tags: ['Compilers', 'Computing'],
  },
  {
    author: ALAN,
    title: 'Searching this blog with GraphQL',
    content:
      'Ask searchPosts for a few words and GraphQL answers the published posts that match, ' +
      'best first, each with a rank and a snippet that marks the words it found. Quote a ' +
      'phrase, put a dash before a word to leave it out, or type the start of a word.',
    tags: ['GraphQL', 'Search'],
  },
];

/** A post Ada has scheduled a week ahead: a draft until then, in her `myScheduledPosts`. */
const SCHEDULED_POST = {
  author: ADA,
  title: 'Sketch of the engine, translated',
  content: '# Sketch\n\nA translation, with notes longer than the paper.',
  publishInDays: 7,
};

/**
 * On an empty database, when SEED_DEMO is on, adds a few users and posts to explore: Ada is the
 * admin, Grace an editor, Charles a contributor whose draft awaits review, Alan an author, and
 * Mallory a spammer whose comment Alan has reported. The first post has a thread with replies. Their
 * password is the README's only while the service listens on loopback; a service that others can
 * reach gets a random one, printed once, here. Ada's notifications come from the users' own
 * follows, likes and comments, made through the services as a client's would be.
 */
@Injectable()
export class DemoSeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoSeed');

  constructor(
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    @Inject(BLOG_MODULE_OPTIONS) private readonly blog: BlogModuleOptions,
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly posts: PostsService,
    private readonly follows: FollowsService,
    private readonly likes: LikesService,
    private readonly comments: CommentsService,
    private readonly reports: ReportsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.app.seedDemo) return;
    if ((await this.users.list({ first: 1, after: null })).length > 0) return;
    const local = isLoopbackHost(this.app.host);
    const password = local ? DEMO_PASSWORD : randomBytes(12).toString('base64url');
    const people: User[] = [];
    for (const user of DEMO_USERS) {
      // Their addresses are the demo's own: verified, and mailed nothing.
      people.push((await this.auth.signUp({ ...user, password }, { emailVerified: true })).user);
    }
    // The first admin is made as `npm run user:admin` makes one; she names the other roles.
    await this.dataSource.getRepository(User).update({ id: people[ADA].id }, { role: Role.ADMIN });
    people[ADA].role = Role.ADMIN;
    people[GRACE] = await this.users.setRole(people[ADA], people[GRACE].id, Role.EDITOR);
    people[CHARLES] = await this.users.setRole(people[ADA], people[CHARLES].id, Role.CONTRIBUTOR);
    // Following Ada first, Grace and Alan hear of each post she publishes.
    await this.follows.follow(people[ADA].id, people[GRACE]);
    await this.follows.follow(people[ADA].id, people[ALAN]);
    await this.follows.follow(people[GRACE].id, people[ADA]);
    const posts: Post[] = [];
    for (const { author, title, content, tags, ...card } of DEMO_POSTS) {
      const input = { title, content, ...card, ...(this.blog.features?.tags && { tags }) };
      posts.push(await this.posts.create({ input }, people[author]));
    }
    const { author, title, content, publishInDays } = SCHEDULED_POST;
    const publishAt = new Date(Date.now() + publishInDays * 24 * 3_600_000);
    await this.posts.create({ input: { title, content, publishAt } }, people[author]);
    await this.likes.like(posts[0].id, people[GRACE]);
    await this.likes.like(posts[3].id, people[ALAN]);
    const opening = await this.comments.add(
      posts[0].id,
      'Patterns, like a loom’s: lovely.',
      people[ALAN],
    );
    const reply = await this.comments.add(
      posts[0].id,
      'And the cards can be used again, as a program can.',
      people[GRACE],
      opening.id,
    );
    await this.comments.add(posts[0].id, 'Exactly my point, Grace.', people[ADA], reply.id);
    const draft = await this.posts.create(
      { input: { ...DRAFT_FOR_REVIEW, publish: false } },
      people[CHARLES],
    );
    await this.posts.submitForReview(draft.id, people[CHARLES]);
    const spam = await this.comments.add(
      posts[1].id,
      'Cheap looms at https://looms.example, today only!',
      people[MALLORY],
    );
    await this.reports.reportComment(spam.id, ReportReason.SPAM, 'An advert.', people[ALAN]);
    this.logger.log(
      `Seeded a demo: ${DEMO_USERS.length} users (Ada the admin, Grace an editor, Charles a contributor), ` +
        `${DEMO_POSTS.length} posts, a scheduled one and one awaiting review, follows, likes, a thread ` +
        `and a reported comment. Log in as ${DEMO_USERS[ADA].email} / ${password}` +
        (local
          ? '.'
          : ` (made for HOST ${this.app.host}, which others can reach; not shown again).`),
    );
  }
}
