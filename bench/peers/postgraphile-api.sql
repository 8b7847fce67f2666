-- What PostGraphile 4 needs on top of the service's tables to answer the benchmark operations
-- with the same meaning as our service. Applied by the benchmark to PostGraphile's own copy of
-- the database. The viewer is the `sub` claim of the JWT, which PostGraphile exposes as the
-- transaction setting jwt.claims.sub.

create function viewer_id() returns varchar language sql stable as $$
  select nullif(current_setting('jwt.claims.sub', true), '')::varchar
$$;
comment on function viewer_id() is E'@omit';

-- Q2: the feed, as our service defines it (followed authors and the viewer; everyone's
-- published posts when the viewer is anonymous or follows no one). A set-returning SQL
-- function that PostgreSQL can inline, so `first: 20` becomes a LIMIT on the query.
create function feed() returns setof posts language sql stable as $$
  select p.*
  from posts p
  where p.published_at is not null
    and (
      viewer_id() is null
      or not exists (select 1 from follows f where f.follower_id = viewer_id())
      or p.author_id = viewer_id()
      or p.author_id in (select f.followee_id from follows f where f.follower_id = viewer_id())
    )
  order by p.published_at desc, p.id desc
$$;

-- Q3: User.publishedPosts, a user's published posts newest first (postsByAuthorId would
-- include drafts, and PostGraphile's `condition` cannot say IS NOT NULL).
create function users_published_posts(u users) returns setof posts language sql stable as $$
  select p.*
  from posts p
  where p.author_id = u.id and p.published_at is not null
  order by p.published_at desc, p.id desc
$$;

-- Q2 and W2: Post.isLikedByMe for the viewer of the JWT.
create function posts_is_liked_by_me(p posts) returns boolean language sql stable as $$
  select exists (select 1 from likes l where l.post_id = p.id and l.user_id = viewer_id())
$$;

-- A UUIDv7 in text form, like the service's ids (time-ordered).
create function bench_uuid_v7() returns varchar language sql volatile as $$
  select substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(h, 14, 3) || '-'
      || substr('89ab', 1 + floor(random() * 4)::int, 1) || substr(h, 18, 3) || '-'
      || substr(h, 21, 12)
  from (
    select lpad(to_hex(floor(extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
        || md5(random()::text || clock_timestamp()::text) as h
  ) t
$$;
comment on function bench_uuid_v7() is E'@omit';

-- W1: a published post by the viewer (PostGraphile's own createPost would take the author and
-- the id from the client).
create function write_post(title varchar, content text) returns posts language sql volatile as $$
  insert into posts (id, title, content, author_id, created_at, updated_at, published_at)
  values (bench_uuid_v7(), title, content, viewer_id(), now(), now(), now())
  returning *
$$;

-- W2: idempotent like and unlike of a published post by the viewer.
create function like_post(post_id varchar) returns posts language sql volatile as $$
  insert into likes (post_id, user_id, created_at)
  select p.id, viewer_id(), now() from posts p
  where p.id = like_post.post_id and p.published_at is not null
  on conflict do nothing;
  select * from posts p where p.id = like_post.post_id and p.published_at is not null;
$$;

create function unlike_post(post_id varchar) returns posts language sql volatile as $$
  delete from likes l where l.post_id = unlike_post.post_id and l.user_id = viewer_id();
  select * from posts p where p.id = unlike_post.post_id and p.published_at is not null;
$$;

-- P1: the post that has or had a slug, as our postBySlug finds it (post_slugs keeps every slug a
-- post has had, its current one included), hidden when it is a draft of someone else. The
-- unique index on posts.slug is not a unique constraint, so PostGraphile makes no postBySlug of
-- its own.
create function post_by_slug(slug varchar) returns posts language sql stable strict as $$
  select p.*
  from post_slugs s
  join posts p on p.id = s.post_id
  where s.slug = post_by_slug.slug
    and (p.published_at is not null or p.author_id = viewer_id())
$$;

-- P1: Post.readingTimeMinutes, from the stored word count as ours computes it (230 words a
-- minute, rounded up, at least 1).
create function posts_reading_time_minutes(p posts) returns integer language sql stable as $$
  select greatest(1, ceil(coalesce(p.word_count, 0) / 230.0))::integer
$$;

-- P1: Post.toc, the headings that posts.toc stores as a JSON array, in their order. The column
-- itself, JSON in a text, is not published: the field of that name is this one.
comment on column posts.toc is E'@omit';

create type toc_entry as (id text, level integer, title text);

create function posts_toc(p posts) returns setof toc_entry language sql stable as $$
  select e ->> 'id', (e ->> 'level')::integer, e ->> 'title'
  from jsonb_array_elements(coalesce(p.toc, '[]')::jsonb) with ordinality as t(e, n)
  order by t.n
$$;
