-- Generated from src/blog/auth/auth.sql.ts by `npm run sql:generate`: do not edit.
-- Each statement as PostgreSQL receives it; $n takes the parameter named under binds.

-- deleteAccountSql.user
-- binds: $1 id
DELETE FROM users
WHERE
  id = $1;
