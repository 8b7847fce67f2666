import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';

import { createPostgresDatabase, testDatabase } from './databases';
import { StatementCounter } from './statement-counter';
import { AppModule } from '../../src/app.module';
import { Role, User } from '../../src/blog';
import { BlogEvent } from '../../src/blog/events/blog-events';
import { MailOutbox } from '../../src/blog/mail/mail-outbox';
import { PublicationFanOut } from '../../src/blog/notifications/publication-fan-out';
import { PostSearchIndex } from '../../src/blog/posts/post-search-index';
import { SubscriptionFanOut } from '../../src/blog/subscriptions/event-fan-out';
import { WebhookDispatcher } from '../../src/blog/webhooks/webhook-dispatcher';
import { loadAppConfig, loadHttpConfig, loadObservabilityConfig } from '../../src/config';
import { createFastifyAdapter, configureApp } from '../../src/http/fastify-adapter';
import { createLogger, PinoLoggerService } from '../../src/observability';

export interface GraphQLResponse<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; field?: string } }[];
}

export interface TestUser {
  user: { id: string; name: string; email: string; handle: string };
  token: string;
  password: string;
}

/**
 * A running app on a fresh, real database: a SQLite file, or a PostgreSQL database of its own
 * in the e2e-postgres project,
 * with helpers to send GraphQL operations.
 */
export class TestApp {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly statements: StatementCounter,
    private readonly cleanup: () => Promise<void>,
  ) {}

  /**
   * Boots the app. `env` overrides variables (undefined removes one); `dataDir` reuses a data
   * folder, which is then left in place for the caller to remove; `shareDatabaseOf` runs a
   * second instance on the database of a first one. `logs` receives the app's log lines (pino
   * JSON, at LOG_LEVEL); without it the app logs only Nest's errors and warnings, to the console.
   */
  static async start(
    options: {
      env?: Record<string, string | undefined>;
      dataDir?: string;
      shareDatabaseOf?: TestApp;
      logs?: { write(line: string): void };
    } = {},
  ): Promise<TestApp> {
    const { env = {}, dataDir, shareDatabaseOf, logs } = options;
    const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'blog-e2e-'));
    const postgres =
      testDatabase() === 'postgres' && !shareDatabaseOf ? await createPostgresDatabase() : null;
    // Run when the app closes, and when it refuses to start (the bad-settings suites).
    const cleanup = async () => {
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
      await postgres?.drop();
    };
    const saved = { ...process.env };
    Object.assign(process.env, {
      DATA_DIR: dir,
      DATABASE_URL:
        shareDatabaseOf?.databaseUrl ?? postgres?.url ?? `sqlite:${join(dir, 'blog.sqlite')}`,
    });
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    const statements = new StatementCounter();
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [AppModule.forRoot({ logger: statements })],
      }).compile();
      const http = loadHttpConfig();
      const logger = logs && createLogger(loadObservabilityConfig(), logs);
      const app = moduleRef.createNestApplication<NestFastifyApplication>(
        createFastifyAdapter(loadAppConfig(), http, logger),
        { logger: logger ? new PinoLoggerService(logger) : ['error', 'warn'] },
      );
      configureApp(app, http);
      await app.init();
      await app.getHttpAdapter().getInstance().ready();
      const testApp = new TestApp(app, statements, cleanup);
      statements.settle = () => testApp.fannedOut();
      return testApp;
    } catch (error) {
      await cleanup();
      throw error;
    } finally {
      process.env = saved;
    }
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  get http() {
    return request(this.app.getHttpServer());
  }

  /**
   * POSTs an operation to /graphql and returns the response's status and body; `authorization`
   * goes into its header as given.
   */
  async reply(
    query: string,
    variables: Record<string, unknown> = {},
    authorization?: string,
  ): Promise<{ status: number; body: unknown }> {
    const req = this.http.post('/graphql').set('content-type', 'application/json');
    if (authorization !== undefined) req.set('authorization', authorization);
    const response = await req.send({ query, variables });
    return { status: response.status, body: response.body };
  }

  /** POSTs an operation to /graphql; `token` goes into the authorization header as given. */
  async gql<T = Record<string, any>>(
    query: string,
    variables: Record<string, unknown> = {},
    authorization?: string,
  ): Promise<GraphQLResponse<T>> {
    return (await this.reply(query, variables, authorization)).body as GraphQLResponse<T>;
  }

  /** Like gql, but fails the test on any error and returns the data. */
  async data<T = Record<string, any>>(
    query: string,
    variables: Record<string, unknown> = {},
    authorization?: string,
  ): Promise<T> {
    const response = await this.gql<T>(query, variables, authorization);
    if (response.errors?.length) {
      throw new Error(`Unexpected GraphQL errors: ${JSON.stringify(response.errors)}`);
    }
    return response.data as T;
  }

  /** Like data, with the number of statements the operation sent (see StatementCounter.count). */
  async counted<T = Record<string, any>>(
    query: string,
    variables: Record<string, unknown> = {},
    authorization?: string,
  ): Promise<{ data: T; count: number }> {
    const { result, statements } = await this.statements.during(() =>
      this.data<T>(query, variables, authorization),
    );
    return { data: result, count: statements.length };
  }

  private userCount = 0;

  /** Signs up a new user and returns them with a `Bearer` token. */
  async signUp(
    overrides: Partial<{ name: string; email: string; handle: string }> = {},
  ): Promise<TestUser> {
    this.userCount += 1;
    const n = `${Date.now().toString(36)}${this.userCount}`;
    const password = 'correct horse battery';
    const input = { name: `User ${n}`, email: `user${n}@example.com`, password, ...overrides };
    const { signUp } = await this.data<{ signUp: { token: string; user: TestUser['user'] } }>(
      `mutation ($input: SignUpInput!) { signUp(input: $input) { token user { id name email handle } } }`,
      { input },
    );
    return { user: signUp.user, token: `Bearer ${signUp.token}`, password };
  }

  /** Makes an existing user an admin, straight in the database. */
  async makeAdmin(userId: string): Promise<void> {
    await this.dataSource.getRepository(User).update({ id: userId }, { role: Role.ADMIN });
  }

  /** Listens on a free port of 127.0.0.1, for clients that need a real socket. */
  async listen(): Promise<{ http: string; ws: string }> {
    await this.app.listen(0, '127.0.0.1');
    const { port } = this.app.getHttpServer().address() as AddressInfo;
    return { http: `http://127.0.0.1:${port}/graphql`, ws: `ws://127.0.0.1:${port}/graphql` };
  }

  /**
   * Waits until this instance holds exactly `count` subscriptions to `event`, and its PubSub
   * (Redis, say) has taken the listener they share: graphql-ws acknowledges no subscribe
   * message, so an event published before then could be missed.
   */
  async untilSubscribed(
    event: (typeof BlogEvent)[keyof typeof BlogEvent],
    count: number,
    timeoutMs = 20_000,
  ): Promise<void> {
    const fanOut = this.app.get(SubscriptionFanOut);
    for (const deadline = Date.now() + timeoutMs; fanOut.subscribers(event) !== count;) {
      if (Date.now() > deadline) {
        throw new Error(`${fanOut.subscribers(event)} subscriptions to ${event}, not ${count}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const { channels } = fanOut as unknown as {
      channels: Map<string, { subscription: Promise<number> }>;
    };
    await channels.get(event)?.subscription;
  }

  /**
   * Waits for the work the app leaves to run after it answers: the fan-out of the publications
   * committed so far (see PublicationFanOut), when it serves notifications, and SQLite's search
   * index of the posts created so far (see PostSearchIndex), and the mails queued so far (see
   * MailOutbox), and the webhook deliveries due so far (see WebhookDispatcher; not their retries).
   */
  async fannedOut(): Promise<void> {
    await publicationFanOutOf(this.app)?.settled();
    await this.app.get(PostSearchIndex, { strict: false }).settled();
    await this.app.get(MailOutbox, { strict: false }).settled();
    await this.app.get(WebhookDispatcher, { strict: false }).settled();
  }

  /** The DATABASE_URL of this app's database. */
  get databaseUrl(): string {
    const options = this.dataSource.options;
    return options.type === 'postgres'
      ? (options.url as string)
      : `sqlite:${options.database as string}`;
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.cleanup();
  }
}

/** The app's fan-out of publications, or null when it serves no notifications. */
function publicationFanOutOf(app: NestFastifyApplication): PublicationFanOut | null {
  try {
    return app.get(PublicationFanOut, { strict: false });
  } catch {
    return null;
  }
}
