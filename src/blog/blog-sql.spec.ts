import { deleteAccountSql } from './auth/auth.sql';
import { commentsSql } from './comments/comments.sql';
import { Dialect, Statement, translate } from './common/sql';
import { feedSql } from './feed/feed.sql';
import { followsSql } from './follows/follows.sql';
import { likesSql } from './likes/likes.sql';
import { postsSql } from './posts/posts.sql';
import { usersSql } from './users/users.sql';

const features: Record<string, Record<string, Statement>> = {
  posts: postsSql,
  users: usersSql,
  comments: commentsSql,
  likes: likesSql,
  follows: followsSql,
  feed: feedSql,
  deleteAccount: deleteAccountSql,
};

/** Each statement as `dialect` receives it, with the parameter each placeholder takes. */
function sent(statements: Record<string, Statement>, dialect: Dialect): string {
  return Object.entries(statements)
    .map(([key, { text }]) => {
      const { text: sql, names } = translate(text, dialect);
      return `-- ${key} (${names.map((name, index) => `${index + 1}: ${name}`).join(', ')})\n${sql};`;
    })
    .join('\n\n');
}

/**
 * The exact SQL of every statement, per database, kept in the committed snapshot beside this
 * spec, so that a changed query shows in review. After an intended change, update it with
 * `npx jest --config jest.config.js --selectProjects unit -u src/blog/blog-sql.spec.ts`.
 */
describe('The SQL each feature sends', () => {
  for (const [feature, statements] of Object.entries(features)) {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      it(`should send the ${feature} statements unchanged on ${dialect}`, () => {
        expect(sent(statements, dialect)).toMatchSnapshot();
      });
    }
  }
});
