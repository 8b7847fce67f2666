import { randomBytes } from 'node:crypto';

import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';

import { AuthService, PostsService, UsersService } from '../../blog';
import { appConfig } from '../../config/app.config';
import { isLoopbackHost } from '../../config/host';

/** The demo's password in the README, for a service that only this machine can reach. */
export const DEMO_PASSWORD = 'demo-password';

const DEMO_USERS = [
  { name: 'Ada Lovelace', email: 'ada@example.com', handle: 'ada' },
  { name: 'Grace Hopper', email: 'grace@example.com', handle: 'grace' },
  { name: 'Alan Turing', email: 'alan@example.com', handle: 'alan' },
];

const DEMO_POSTS = [
  { author: 0, title: 'Notes on the Analytical Engine', content: 'It weaves algebraic patterns.' },
  { author: 1, title: 'Finding the first bug', content: 'A moth, taped into the log book.' },
  { author: 2, title: 'Can machines think?', content: 'I propose to consider the question.' },
  { author: 0, title: 'Poetical science', content: 'Imagination is the discovering faculty.' },
  { author: 1, title: 'Compilers for everyone', content: 'Programs in English-like words.' },
];

/**
 * On an empty database, when SEED_DEMO is on, adds a few users and posts to explore. Their
 * password is the README's only while the service listens on loopback; a service that others can
 * reach gets a random one, printed once, here.
 */
@Injectable()
export class DemoSeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoSeed');

  constructor(
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly posts: PostsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.app.seedDemo) return;
    if ((await this.users.list({ first: 1, after: null })).length > 0) return;
    const local = isLoopbackHost(this.app.host);
    const password = local ? DEMO_PASSWORD : randomBytes(12).toString('base64url');
    const authors = [];
    for (const user of DEMO_USERS) {
      authors.push((await this.auth.signUp({ ...user, password })).user);
    }
    for (const post of DEMO_POSTS) {
      const author = authors[post.author];
      await this.posts.create({ input: { title: post.title, content: post.content } }, author);
    }
    this.logger.log(
      `Seeded a demo: ${DEMO_USERS.length} users, ${DEMO_POSTS.length} posts. ` +
        `Log in as ${DEMO_USERS[0].email} / ${password}` +
        (local
          ? '.'
          : ` (made for HOST ${this.app.host}, which others can reach; not shown again).`),
    );
  }
}
