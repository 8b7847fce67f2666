-- Applied after bench/peers/postgraphile-api.sql (the same functions serve both PostGraphile
-- versions) to PostGraphile 5's own copy of the database. PostGraphile 5 reads behaviours, not
-- PostGraphile 4's @omit, from smart comments.

comment on function viewer_id() is E'@behavior -*';
comment on function bench_uuid_v7() is E'@behavior -*';

-- What a production deployment would not publish.
comment on column users.email is E'@behavior -*';
comment on column users.password_hash is E'@behavior -*';
comment on column users.token_version is E'@behavior -*';
