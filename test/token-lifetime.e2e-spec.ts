import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';

import { BlogModule, blogMigrations } from '../src/blog';
import { TestApp } from './helpers/test-app';

/** The claims of a JWT, read without checking it. */
const claims = (bearer: string): { iat: number; exp: number } =>
  JSON.parse(Buffer.from(bearer.replace(/^Bearer /, '').split('.')[1], 'base64url').toString());

describe('The access token lifetime (e2e)', () => {
  it('should read JWT_EXPIRES_IN=3600 as seconds: exp - iat = 3600', async () => {
    const t = await TestApp.start({ env: { JWT_EXPIRES_IN: '3600' } });
    try {
      const { token } = await t.signUp();
      const { iat, exp } = claims(token);
      expect(exp - iat).toBe(3600);
    } finally {
      await t.close();
    }
  });

  it('should read a duration with a unit: JWT_EXPIRES_IN=15m gives exp - iat = 900', async () => {
    const t = await TestApp.start({ env: { JWT_EXPIRES_IN: '15m' } });
    try {
      const { iat, exp } = claims((await t.signUp()).token);
      expect(exp - iat).toBe(900);
    } finally {
      await t.close();
    }
  });

  it.each(['0', '-5', '0s'])('should refuse to start with JWT_EXPIRES_IN=%s', async (value) => {
    await expect(TestApp.start({ env: { JWT_EXPIRES_IN: value } })).rejects.toThrow(
      /^Invalid environment variable JWT_EXPIRES_IN: /,
    );
  });

  describe('as a BlogModule option', () => {
    function hostModule(blog: DynamicModule) {
      @Module({
        imports: [
          TypeOrmModule.forRoot({
            type: 'better-sqlite3',
            database: ':memory:',
            autoLoadEntities: true,
            migrations: blogMigrations,
            migrationsRun: true,
          }),
          GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, autoSchemaFile: true }),
          blog,
        ],
      })
      class HostModule {}
      return HostModule;
    }
    const jwtSecret = 'a-host-secret-of-at-least-32-characters';

    it.each([0, -5, '0s', '-1d', 'soon'])('should refuse jwtExpiresIn: %p', async (value) => {
      const compiling = Test.createTestingModule({
        imports: [hostModule(BlogModule.forRoot({ jwtSecret, jwtExpiresIn: value }))],
      }).compile();
      await expect(compiling).rejects.toThrow(/jwtExpiresIn/);
    });
  });
});
