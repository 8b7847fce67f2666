-- Applied after bench/peers/postgraphile-api.sql (the same functions serve both PostGraphile
-- versions) to PostGraphile 5's own copy of the database. PostGraphile 5 reads behaviours, not
-- PostGraphile 4's @omit, from smart comments.

comment on function viewer_id() is E'@behavior -*';
comment on function bench_uuid_v7() is E'@behavior -*';
-- P1: Post.toc is posts_toc(), the headings as a list; the column is JSON in a text.
comment on column posts.toc is E'@behavior -*';
-- P1: a post's tags in their order. PostGraphile 5 orders a list only by indexed columns unless
-- told otherwise; a post has a handful of tags, found by the primary key (post_id, slug).
comment on column post_tags.position is E'@behavior +orderBy';

-- What a production deployment would not publish.
comment on column users.email is E'@behavior -*';
comment on column users.password_hash is E'@behavior -*';
comment on column users.token_version is E'@behavior -*';
