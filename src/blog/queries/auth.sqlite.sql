-- Generated from src/blog/auth/auth.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as SQLite receives it; each ? takes the next parameter under binds.

-- deleteAccountSql.user
-- binds: id
DELETE FROM users
WHERE
  id = + ?;
