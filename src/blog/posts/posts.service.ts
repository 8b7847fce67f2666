import { randomBytes } from 'node:crypto';

import { Injectable, Optional } from '@nestjs/common';

import { absoluteUrl, postCard } from './post-card';
import { awaitsReview, PostReviewState, REJECTION_REASON_LENGTH } from './post-review';
import { PostSearchIndex } from './post-search-index';
import { foldedSearchText } from './post-search-text';
import {
  lookupSlug,
  MAX_SLUG_LENGTH,
  requestedSlug,
  slugCandidates,
  slugOfTitle,
} from './post-slug';
import { PostTagsWriter } from './post-tags-writer';
import { Post } from './post.entity';
import { toPost } from './post.rows';
import { PageParameters, PostBodyRow, PostUpdate, postsSql } from './posts.sql';
import { renderPostContent, TocEntry as RenderedTocEntry } from '../common/content';
import { badUserInput, conflict, forbidden, notFound, unauthenticated } from '../common/errors';
import { groupBy } from '../common/group-by';
import { Page } from '../common/pagination';
import { countsByKey, PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { BlogEvents } from '../events/blog-events';
import { ImagesService } from '../images/images.service';
import { NotificationsService } from '../notifications/notifications.service';
import { canPublish, canPublishFor, isAdmin, isModerator } from '../users/roles';
import { User } from '../users/user.entity';
import { toAuthor } from '../users/user.rows';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { CreatePostArgs, readCreatePostForm } from './dto/create-post.args';
import { CoverImageInput, PostSeoInput } from './dto/post-card.input';
import { UpdatePostInput } from './dto/update-post.input';

/**
 * True when `viewer` may see `post`: published posts are public, drafts belong to their author
 * and admins, and a draft awaiting review, or a post moderation hid, is seen by editors too.
 */
export function canSee(post: Post, viewer: Viewer): boolean {
  if (post.publishedAt !== null || post.authorId === viewer?.id || isAdmin(viewer)) return true;
  return (awaitsReview(post) || post.hiddenAt !== null) && isModerator(viewer);
}

/** What a contributor is told when they try to publish, schedule or unpublish. */
const SUBMIT_FOR_REVIEW =
  'Contributors do not publish, schedule or unpublish posts: keep it a draft (publish: false) and submit it with submitPostForReview, for an editor to publish.';

/** A page of the review queue: its size, and the post it continues after. */
export interface ReviewPage {
  first: number;
  after: { requestedAt: Date; id: string } | null;
}

/** What a change of a post needs of the viewer (see PostsService.findOwned). */
type PostAction = 'edit' | 'delete' | 'publish' | 'schedule' | 'unschedule' | 'unpublish';

/** A page of scheduled posts: its size, and the post it continues after. */
export interface ScheduledPage {
  first: number;
  after: { scheduledAt: Date; id: string } | null;
}

/** A post's review once it is decided: published or scheduled. */
const NO_REVIEW = { reviewState: null, reviewRequestedAt: null, rejectionReason: null };

/** Rounds of 50 slugs tried for a new post's title before a random suffix. */
const SLUG_ROUNDS = 4;

/** A post's cover as stored. */
export type PostCover = Pick<Post, 'coverUrl' | 'coverImageId' | 'coverAlt' | 'coverCaption'>;
/** A post's SEO fields as stored. */
export type PostSeoColumns = Pick<Post, 'seoTitle' | 'seoDescription' | 'seoCanonicalUrl'>;

/** A post's content as rendered on write: see renderPostContent. */
export interface PostBody {
  html: string;
  text: string;
  toc: RenderedTocEntry[];
}

function toPostBody(row: PostBodyRow): PostBody {
  return {
    html: row.contentHtml ?? '',
    text: row.contentText ?? '',
    toc: row.toc ? (JSON.parse(row.toc) as RenderedTocEntry[]) : [],
  };
}

export interface PostsPage {
  posts: Post[];
  hasNextPage: boolean;
}

/** Which published posts a page holds: one author's, those with all of some tags (slugs), or all. */
export type PostsFilter = { authorId?: string; tags?: readonly string[] } | null;

/** Posts: drafts, publishing, edits, deletion and pages of them. For the host's own code. */
@Injectable()
export class PostsService {
  private readonly statements: PreparedStatements<typeof postsSql>;
  /** SQLite's search index needs the NFKC form of text that has one (see foldedSearchText). */
  private readonly foldsSearchText: boolean;

  constructor(
    private readonly users: UsersService,
    private readonly events: BlogEvents,
    private readonly sql: Sql,
    private readonly searchIndex: PostSearchIndex,
    @Optional() private readonly tags?: PostTagsWriter,
    @Optional() private readonly notifications?: NotificationsService,
    @Optional() private readonly images?: ImagesService,
    @Optional() private readonly webhooks?: WebhookOutbox,
  ) {
    this.statements = sql.prepare(postsSql);
    this.foldsSearchText = sql.dialect === 'sqlite';
  }

  async findByIds(ids: readonly string[]): Promise<Post[]> {
    return (await this.sql.all(this.statements.byIds, { ids })).map(toPost);
  }

  /** The post, or null when it does not exist or `viewer` may not see it. */
  async findVisible(id: string, viewer: Viewer): Promise<Post | null> {
    const row = await this.sql.one(this.statements.byId, { id });
    const post = row && toPost(row);
    return post && canSee(post, viewer) ? post : null;
  }

  /** Like {@link findVisible}, with the post's author read by the same statement. */
  async findVisibleWithAuthor(
    id: string,
    viewer: Viewer,
  ): Promise<{ post: Post; author: User } | null> {
    const row = await this.sql.one(this.statements.byIdWithAuthor, { id });
    const post = row && toPost(row);
    return post && canSee(post, viewer) ? { post, author: toAuthor(row) } : null;
  }

  /**
   * A published post that `viewer` may comment on or like: NOT_FOUND when it is missing or
   * hidden, BAD_USER_INPUT when it is the viewer's own draft.
   */
  async findPublished(id: string, viewer: Viewer): Promise<Post> {
    const post = await this.findVisible(id, viewer);
    if (!post) throw notFound('Post');
    if (post.publishedAt === null)
      throw badUserInput('The post is a draft; publish it first.', 'postId');
    return post;
  }

  /** Published posts, newest first (publishedAt, then id): all of them, or those of `filter`. */
  async list(page: Page, filter: PostsFilter = null): Promise<Post[]> {
    const parameters = await this.pageOf(page);
    const after = parameters.afterId !== undefined;
    const { statements: s, sql } = this;
    const { authorId, tags } = filter ?? {};
    if (tags?.length) {
      const statement = authorId
        ? after
          ? s.taggedByAuthorAfter
          : s.taggedByAuthor
        : after
          ? s.taggedAfter
          : s.tagged;
      const tagged = { ...parameters, authorId, tags, tagCount: tags.length };
      return (await sql.all(statement, tagged)).map(toPost);
    }
    const rows = authorId
      ? await sql.all(after ? s.byAuthorAfter : s.byAuthor, { ...parameters, authorId })
      : await sql.all(after ? s.publishedAfter : s.published, parameters);
    return rows.map(toPost);
  }

  /**
   * The page's size, and the publishedAt (as stored) and id of the post that it continues
   * after; none for a first page. A connection cursor carries them; a plain id costs one lookup,
   * and BAD_USER_INPUT when it names no published post (it may have been deleted): an empty page
   * would look like the end of the list.
   */
  async pageOf(page: Page): Promise<PageParameters> {
    if (page.after === null) return { first: page.first };
    if (page.afterPublishedAt) {
      return { first: page.first, afterPublishedAt: page.afterPublishedAt, afterId: page.after };
    }
    const row = await this.sql.one(this.statements.publishedAtOf, { id: page.after });
    if (row?.publishedAt == null) {
      throw badUserInput('after must be the id of a published post of the previous page.', 'after');
    }
    return { first: page.first, afterPublishedAt: row.publishedAt, afterId: page.after };
  }

  /** A page of published posts plus whether more follow, for Relay connections. */
  async listWithNext(page: Page, filter: PostsFilter = null): Promise<PostsPage> {
    const posts = await this.list({ ...page, first: page.first + 1 }, filter);
    return { posts: posts.slice(0, page.first), hasNextPage: posts.length > page.first };
  }

  async countPublished(authorId?: string | null): Promise<number> {
    return this.countMatching(authorId ? { authorId } : null);
  }

  /** The number of published posts that {@link list} pages through for `filter`. */
  async countMatching(filter: PostsFilter): Promise<number> {
    const { authorId, tags } = filter ?? {};
    if (tags?.length) {
      const parameters = { authorId, tags, tagCount: tags.length };
      const statement = authorId
        ? this.statements.countTaggedByAuthor
        : this.statements.countTagged;
      return Number((await this.sql.one(statement, parameters))?.count ?? 0);
    }
    const row = authorId
      ? await this.sql.one(this.statements.countPublishedBy, { authorId })
      : await this.sql.one(this.statements.countPublished, {});
    return Number(row?.count ?? 0);
  }

  /** The viewer's drafts, newest first. */
  async listDrafts(viewer: Viewer, page: Page): Promise<Post[]> {
    if (!viewer) throw unauthenticated('You must be signed in to see your drafts.');
    const parameters = { authorId: viewer.id, first: page.first };
    const rows = page.after
      ? await this.sql.all(this.statements.draftsAfter, { ...parameters, afterId: page.after })
      : await this.sql.all(this.statements.drafts, parameters);
    return rows.map(toPost);
  }

  /**
   * One page of published posts for each author, in one statement whatever the number of
   * authors. Without `content`, the posts are read without theirs (see {@link toPost}): for a
   * selection of FIELDS_WITHOUT_CONTENT alone (see post.rows), whose answer it would not change.
   */
  async listByAuthors(
    authorIds: readonly string[],
    page: Page,
    { content = true } = {},
  ): Promise<Map<string, Post[]>> {
    if (page.first === 0 || authorIds.length === 0) return groupBy(authorIds, [], () => '');
    const parameters = { ...(await this.pageOf(page)), authorIds };
    const s = this.statements;
    const [firstPage, nextPage] = content
      ? [s.pagesByAuthors, s.pagesByAuthorsAfter]
      : [s.summaryPagesByAuthors, s.summaryPagesByAuthorsAfter];
    const statement = parameters.afterId !== undefined ? nextPage : firstPage;
    const posts = (await this.sql.all(statement, parameters)).map(toPost);
    return groupBy(authorIds, posts, (post) => post.authorId);
  }

  /** The number of published posts of each author, in one grouped statement. */
  async countPublishedByAuthors(authorIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countPublishedByAuthors, { authorIds }));
  }

  /** Creates a post in either form of `createPost`; see {@link CreatePostArgs}. */
  async create(args: CreatePostArgs, viewer: Viewer): Promise<Post> {
    const form = readCreatePostForm(args);
    const field = (name: string) => (args.input ? `input.${name}` : name);
    const { title, content, authorId, tags } = form;
    const slugs = this.slugsOf(tags, field('tags'));
    const requested = form.slug == null ? null : requestedSlug(form.slug, field('slug'));
    const now = new Date();
    const scheduledAt = form.publishAt ?? null;
    if (scheduledAt && !(scheduledAt.getTime() > now.getTime())) {
      throw badUserInput('publishAt must be in the future.', field('publishAt'));
    }
    const cover = this.coverOf(form.coverImage, field('coverImage'));
    const seo = this.seoOf(form.seo, field('seo'));
    if (!viewer) throw unauthenticated('You must be signed in to create a post.');
    if (authorId && authorId !== viewer.id) {
      if (!isAdmin(viewer)) throw forbidden('You may only create posts as yourself.');
      if (!(await this.users.findById(authorId))) {
        throw badUserInput('authorId does not name a user.', 'authorId');
      }
    }
    if ((form.publish || scheduledAt) && !canPublish(viewer)) throw forbidden(SUBMIT_FOR_REVIEW);
    const rendered = renderPostContent(content);
    const customExcerpt = form.excerpt ?? null;
    const card = postCard(rendered, customExcerpt);
    const post = Object.assign(new Post(), {
      id: newId(),
      title,
      content,
      authorId: authorId ?? viewer.id,
      createdAt: now,
      updatedAt: now,
      publishedAt: form.publish && !scheduledAt ? now : null,
      slug: '',
      scheduledAt,
      excerpt: card.excerpt,
      customExcerpt,
      wordCount: card.wordCount,
      ...cover,
      ...seo,
      reviewState: null,
      reviewRequestedAt: null,
      rejectionReason: null,
    });
    const folded = this.foldsSearchText
      ? foldedSearchText({ title, content: rendered.text })
      : null;
    const inserted = async (sql: SqlRunner) => {
      if (post.coverImageId) {
        post.coverImageId = await this.holdCoverImage(sql, post.coverImageId, post.authorId);
      }
      await sql.run(this.statements.insert, {
        ...post,
        slug: null,
        contentHtml: rendered.html,
        contentText: rendered.text,
        toc: JSON.stringify(rendered.toc),
      });
      // The post's row first: its slugs' rows point to it.
      post.slug = requested
        ? await this.claimRequestedSlug(sql, post.id, requested, now, field('slug'))
        : await this.claimSlugFrom(sql, post.id, slugOfTitle(title), now);
      await sql.run(this.statements.setSlug, { id: post.id, slug: post.slug });
      if (folded) await sql.run(this.statements.foldSearchText, { id: post.id, ...folded });
      if (slugs?.length) await this.tags?.replace(sql, post.id, slugs);
      if (post.publishedAt) await this.webhooks?.postPublished(sql, post);
      else if (scheduledAt) await this.webhooks?.postScheduled(sql, post, scheduledAt, now);
      return true;
    };
    if (post.publishedAt && this.notifications) {
      await this.notifications.postPublished(post, inserted);
    } else {
      await this.sql.transaction(inserted);
    }
    this.searchIndex.written();
    if (post.publishedAt) await this.events.postPublished(post.id);
    return post;
  }

  /** Changes the fields given; `tags` replaces all of the post's tags (`[]` removes them). */
  async update(id: string, input: UpdatePostInput, viewer: Viewer): Promise<Post> {
    const slugs = this.slugsOf(input.tags, 'input.tags');
    const requested = input.slug == null ? null : requestedSlug(input.slug, 'input.slug');
    const cover =
      input.coverImage === undefined ? null : this.coverOf(input.coverImage, 'input.coverImage');
    const seo = input.seo === undefined ? null : this.seoOf(input.seo, 'input.seo');
    const post = await this.findOwned(id, viewer, 'edit');
    const changes: Partial<Post> = {};
    if (input.title != null) changes.title = input.title;
    if (input.content != null) changes.content = input.content;
    if (input.excerpt !== undefined) changes.customExcerpt = input.excerpt;
    if (cover) Object.assign(changes, cover);
    if (seo) Object.assign(changes, seo);
    const slugChanges = requested !== null && requested !== post.slug;
    if (Object.keys(changes).length === 0 && slugs === null && !slugChanges) return post;
    changes.updatedAt = new Date();
    // The card follows the content: rendered again when the content or the excerpt changes.
    const rendered =
      changes.content !== undefined || changes.customExcerpt !== undefined
        ? renderPostContent(changes.content ?? post.content)
        : null;
    if (rendered) {
      const card = postCard(
        rendered,
        changes.customExcerpt !== undefined ? changes.customExcerpt : post.customExcerpt,
      );
      Object.assign(changes, card);
    }
    const update: PostUpdate = {
      id,
      title: changes.title ?? null,
      content: changes.content ?? null,
      contentHtml: rendered?.html ?? null,
      contentText: rendered?.text ?? null,
      toc: rendered ? JSON.stringify(rendered.toc) : null,
      wordCount: rendered?.wordCount ?? null,
      excerpt: changes.excerpt ?? null,
      setExcerpt: changes.customExcerpt !== undefined,
      customExcerpt: changes.customExcerpt ?? null,
      setCover: cover !== null,
      coverUrl: cover?.coverUrl ?? null,
      coverImageId: cover?.coverImageId ?? null,
      coverAlt: cover?.coverAlt ?? null,
      coverCaption: cover?.coverCaption ?? null,
      setSeo: seo !== null,
      seoTitle: seo?.seoTitle ?? null,
      seoDescription: seo?.seoDescription ?? null,
      seoCanonicalUrl: seo?.seoCanonicalUrl ?? null,
      updatedAt: changes.updatedAt,
    };
    await this.sql.transaction(async (sql) => {
      if (update.coverImageId) {
        const imageId = await this.holdCoverImage(sql, update.coverImageId, post.authorId);
        update.coverImageId = changes.coverImageId = imageId;
      }
      const stored = await sql.one(this.statements.update, update);
      // The text as stored: another edit may have changed what this one leaves alone.
      const folded = stored && this.foldsSearchText ? foldedSearchText(stored) : null;
      if (folded) await sql.run(this.statements.foldSearchText, { id, ...folded });
      if (slugs !== null) await this.tags?.replace(sql, id, slugs);
      if (slugChanges) {
        changes.slug = await this.claimRequestedSlug(
          sql,
          id,
          requested,
          changes.updatedAt!,
          'input.slug',
        );
        await sql.run(this.statements.setSlug, { id, slug: changes.slug });
      }
      if (stored) await this.webhooks?.postUpdated(sql, { ...post, ...changes });
    });
    return Object.assign(post, changes);
  }

  /** The post that has or had `slug`, when `viewer` may see it. */
  async findVisibleBySlug(slug: string, viewer: Viewer): Promise<Post | null> {
    const wanted = lookupSlug(slug);
    if (!wanted) return null;
    const row = await this.sql.one(this.statements.bySlug, { slug: wanted });
    const post = row && toPost(row);
    return post && canSee(post, viewer) ? post : null;
  }

  /** The rendered content of each post, in one statement. */
  async bodiesOf(ids: readonly string[]): Promise<Map<string, PostBody>> {
    const rows = await this.sql.all(this.statements.bodies, { ids });
    return new Map(rows.map((row) => [row.id, toPostBody(row)]));
  }

  /** The slugs each post had before its current one, newest first, in one statement. */
  async previousSlugsOf(
    posts: readonly Pick<Post, 'id' | 'slug'>[],
  ): Promise<Map<string, string[]>> {
    const rows = await this.sql.all(this.statements.slugsOf, { ids: posts.map((post) => post.id) });
    const current = new Map(posts.map((post) => [post.id, post.slug]));
    const slugs = new Map<string, string[]>(posts.map((post) => [post.id, []]));
    for (const { postId, slug } of rows) {
      if (current.get(postId) !== slug) slugs.get(postId)?.push(slug);
    }
    return slugs;
  }

  /**
   * Claims the first free slug of `base`, `base-2`, `base-3` … for a new post. A slug is free
   * when no post has or had it; of two writers racing for one, the database's key lets one win
   * and the other takes the next.
   */
  private async claimSlugFrom(
    sql: SqlRunner,
    postId: string,
    base: string,
    at: Date,
  ): Promise<string> {
    for (let round = 0; round < SLUG_ROUNDS; round++) {
      const candidates = slugCandidates(base, round);
      const rows = await sql.all(this.statements.slugsTaken, { slugs: candidates });
      const taken = new Set(rows.map((row) => row.slug));
      for (const slug of candidates) {
        if (taken.has(slug)) continue;
        if ((await sql.run(this.statements.claimSlug, { slug, postId, at })) > 0) return slug;
      }
    }
    // More than 200 posts made the same slug: a random suffix ends the search.
    for (;;) {
      const head = [...base]
        .slice(0, MAX_SLUG_LENGTH - 9)
        .join('')
        .replace(/-+$/, '');
      const slug = `${head}-${randomBytes(4).toString('hex')}`;
      if ((await sql.run(this.statements.claimSlug, { slug, postId, at })) > 0) return slug;
    }
  }

  /**
   * Gives a post the slug its author asked for: CONFLICT (for `field`) when another post has or
   * had it. One of its own earlier slugs becomes its newest again.
   */
  private async claimRequestedSlug(
    sql: SqlRunner,
    postId: string,
    slug: string,
    at: Date,
    field: string,
  ): Promise<string> {
    const owner = await sql.one(this.statements.slugsTaken, { slugs: [slug] });
    if (owner && owner.postId !== postId) {
      throw conflict('Another post has or had this slug.', field);
    }
    if (owner) await sql.run(this.statements.renewSlug, { slug, postId, at });
    else if ((await sql.run(this.statements.claimSlug, { slug, postId, at })) === 0) {
      throw conflict('Another post has or had this slug.', field);
    }
    return slug;
  }

  /**
   * A cover as stored: an uploaded image (checked by {@link holdCoverImage}) or a URL, which
   * must be absolute https; BAD_USER_INPUT unless exactly one of the two is given. Null removes
   * the cover.
   */
  private coverOf(cover: CoverImageInput | null | undefined, field: string): PostCover {
    if (!cover) return { coverUrl: null, coverImageId: null, coverAlt: null, coverCaption: null };
    if ((cover.imageId == null) === (cover.url == null)) {
      throw badUserInput(`${field} needs exactly one of imageId and url.`, field);
    }
    return {
      coverUrl: cover.url == null ? null : absoluteUrl(cover.url, `${field}.url`, ['https']),
      coverImageId: cover.imageId ?? null,
      coverAlt: cover.alt || null,
      coverCaption: cover.caption || null,
    };
  }

  /**
   * The id of the cover's image as stored, held on `sql` until the post is written (see
   * ImagesService.holdForUse): NOT_FOUND for no image, FORBIDDEN unless it is one of
   * `authorId`'s. A post's cover is an image of its author, whoever edits it.
   */
  private async holdCoverImage(sql: SqlRunner, imageId: string, authorId: string): Promise<string> {
    if (!this.images) throw notFound('Image');
    const refusal = "A post's cover must be an image of the post's author.";
    return this.images.holdForUse(sql, imageId, authorId, refusal);
  }

  /** SEO fields as stored; BAD_USER_INPUT unless the canonical URL is absolute http(s). */
  private seoOf(seo: PostSeoInput | null | undefined, field: string): PostSeoColumns {
    const canonical = seo?.canonicalUrl;
    return {
      seoTitle: seo?.title || null,
      seoDescription: seo?.description || null,
      seoCanonicalUrl: canonical
        ? absoluteUrl(canonical, `${field}.canonicalUrl`, ['http', 'https'])
        : null,
    };
  }

  /** The slugs of a `tags` input; null when it is absent or the tags feature is left out. */
  private slugsOf(tags: readonly string[] | null | undefined, field: string): string[] | null {
    return tags == null || !this.tags ? null : this.tags.slugsOf(tags, field);
  }

  /**
   * Publishes a draft; publishing a published post changes nothing. Of concurrent calls, only
   * the one whose conditional update finds the draft publishes it (and its event); the others
   * answer the post as that call stored it.
   */
  async publish(id: string, viewer: Viewer): Promise<{ post: Post; published: boolean }> {
    const post = await this.findOwned(id, viewer, 'publish');
    if (post.publishedAt !== null) return { post, published: false };
    const now = new Date();
    const publishes = async (sql: SqlRunner) => {
      if ((await sql.run(this.statements.publish, { id, at: now })) === 0) return false;
      await this.webhooks?.postPublished(sql, { ...post, publishedAt: now, updatedAt: now });
      return true;
    };
    const changed =
      this.notifications?.postPublished(post, publishes) ?? this.sql.transaction(publishes);
    if (!(await changed)) {
      const stored = await this.sql.one(this.statements.byId, { id });
      if (!stored) throw notFound('Post');
      return { post: toPost(stored), published: false };
    }
    await this.events.postPublished(id);
    const published = { publishedAt: now, updatedAt: now, ...NO_REVIEW };
    return { post: Object.assign(post, published), published: true };
  }

  /**
   * Schedules a draft to publish itself at `at`, in the future: BAD_USER_INPUT for a time past
   * or a published post (unpublish it first).
   */
  async schedule(id: string, at: Date, viewer: Viewer): Promise<Post> {
    const now = new Date();
    if (!(at.getTime() > now.getTime())) throw badUserInput('at must be in the future.', 'at');
    const post = await this.findOwned(id, viewer, 'schedule');
    if (post.publishedAt !== null) {
      throw badUserInput('The post is published; unpublish it first.', 'id');
    }
    const scheduled = await this.sql.transaction(async (sql) => {
      if ((await sql.run(this.statements.schedule, { id, at, now })) === 0) return false;
      await this.webhooks?.postScheduled(sql, post, at, now);
      return true;
    });
    if (!scheduled) return this.stored(id);
    return Object.assign(post, { scheduledAt: at, updatedAt: now, ...NO_REVIEW });
  }

  /** Takes a scheduled post back to a plain draft; anything else is answered as it is. */
  async unschedule(id: string, viewer: Viewer): Promise<Post> {
    const post = await this.findOwned(id, viewer, 'unschedule');
    if (post.scheduledAt === null) return post;
    const now = new Date();
    if ((await this.sql.run(this.statements.unschedule, { id, now })) === 0) return this.stored(id);
    return Object.assign(post, { scheduledAt: null, updatedAt: now });
  }

  /**
   * Takes a published post back to a draft: it leaves lists, search, tags, feeds and bookmarks
   * at once, and its unread notifications and pending fan-out go with it. A draft is answered
   * as it is.
   */
  async unpublish(id: string, viewer: Viewer): Promise<Post> {
    const post = await this.findOwned(id, viewer, 'unpublish');
    if (post.publishedAt === null) return post;
    const now = new Date();
    const unpublished = async (sql: SqlRunner) => {
      if ((await sql.run(this.statements.unpublish, { id, now })) === 0) return false;
      await this.webhooks?.postUnpublished(sql, post, now);
      return true;
    };
    const changed = this.notifications
      ? await this.notifications.postUnpublished(id, unpublished)
      : await this.sql.transaction(unpublished);
    if (!changed) return this.stored(id);
    return Object.assign(post, { publishedAt: null, scheduledAt: null, updatedAt: now });
  }

  /** The viewer's scheduled posts, soonest first, plus whether more follow. */
  async listScheduled(viewer: Viewer, page: ScheduledPage): Promise<PostsPage> {
    if (!viewer) throw unauthenticated('You must be signed in to see your scheduled posts.');
    const parameters = { authorId: viewer.id, first: page.first + 1 };
    const rows = page.after
      ? await this.sql.all(this.statements.scheduledAfter, {
          ...parameters,
          afterScheduledAt: page.after.scheduledAt,
          afterId: page.after.id,
        })
      : await this.sql.all(this.statements.scheduled, parameters);
    const posts = rows.map(toPost);
    return { posts: posts.slice(0, page.first), hasNextPage: posts.length > page.first };
  }

  /** How many posts the viewer has scheduled. */
  async countScheduled(viewer: NonNullable<Viewer>): Promise<number> {
    const row = await this.sql.one(this.statements.countScheduled, { authorId: viewer.id });
    return Number(row?.count ?? 0);
  }

  /**
   * Publishes up to `first` scheduled posts whose time has come, each as publishPost does, with
   * its scheduled time as publishedAt; returns how many this call published. Each post is
   * claimed in its own transaction (see `postsSql.claimDue`), so that of several instances
   * exactly one publishes it.
   */
  async publishDue(now: Date, first: number): Promise<number> {
    const due = await this.sql.all(this.statements.due, { now, first });
    let published = 0;
    for (const { id, authorId } of due) {
      const claimed = async (sql: SqlRunner) => {
        if ((await sql.one(this.statements.claimDue, { id, now })) === null) return false;
        if ((await sql.run(this.statements.publishScheduled, { id, now })) === 0) return false;
        const row = this.webhooks ? await sql.one(this.statements.byId, { id }) : null;
        if (row) await this.webhooks?.postPublished(sql, toPost(row));
        return true;
      };
      const changed = this.notifications
        ? await this.notifications.postPublished({ id, authorId }, claimed)
        : await this.sql.transaction(claimed);
      if (!changed) continue;
      published++;
      this.searchIndex.written();
      await this.events.postPublished(id);
    }
    return published;
  }

  /** The post as stored now: after a conditional write that another one overtook. */
  private async stored(id: string): Promise<Post> {
    const row = await this.sql.one(this.statements.byId, { id });
    if (!row) throw notFound('Post');
    return toPost(row);
  }

  /**
   * Hides a published post (`hidden`), or shows a hidden one again at its old publication time,
   * for moderation, which decides who may: a hidden post is a draft that its author cannot
   * publish, seen by its author and moderators; its unread notifications and pending fan-out go.
   * Runs on `sql` (a moderation transaction) or in a transaction of its own. False when nothing
   * changed: no such post, a draft, or one already so.
   */
  async setHiddenByModeration(id: string, hidden: boolean, sql?: SqlRunner): Promise<boolean> {
    const write = async (runner: SqlRunner) => {
      const now = new Date();
      if (!hidden) {
        if ((await runner.run(this.statements.restoreFromModeration, { id, now })) === 0) {
          return false;
        }
        const shown = this.webhooks ? await runner.one(this.statements.byId, { id }) : null;
        if (shown) await this.webhooks?.postPublished(runner, toPost(shown), now);
        return true;
      }
      const before = this.webhooks ? await runner.one(this.statements.byId, { id }) : null;
      if ((await runner.run(this.statements.hideByModeration, { id, now })) === 0) return false;
      await this.notifications?.forgetPost(id, runner);
      if (before) await this.webhooks?.postUnpublished(runner, toPost(before), now);
      return true;
    };
    return sql ? write(sql) : this.sql.transaction(write);
  }

  /**
   * Deletes a post for moderation, which decides who may, on `sql` (the moderation's
   * transaction); false when there was none.
   */
  async deleteByModeration(id: string, sql: SqlRunner): Promise<boolean> {
    const before = this.webhooks ? await sql.one(this.statements.byId, { id }) : null;
    if ((await sql.run(this.statements.delete, { id })) === 0) return false;
    if (before) await this.webhooks?.postDeleted(sql, toPost(before), new Date());
    return true;
  }

  /** Locks or unlocks a post's comments, for moderation, which decides who may. */
  async setCommentsLocked(id: string, locked: boolean, sql: SqlRunner = this.sql): Promise<void> {
    await sql.run(this.statements.lockComments, { id, at: locked ? new Date() : null });
  }

  /** Deletes a post; the schema's `ON DELETE CASCADE` removes its comments and likes with it. */
  async delete(id: string, viewer: Viewer): Promise<string> {
    const post = await this.findOwned(id, viewer, 'delete');
    await this.sql.transaction(async (sql) => {
      if ((await sql.run(this.statements.delete, { id })) === 0) return;
      await this.webhooks?.postDeleted(sql, post, new Date());
    });
    return id;
  }

  /**
   * The post if `viewer` may do `action` to it. Its author or an admin edits or deletes it, and
   * unschedules it. Publishing, scheduling and unpublishing take a role that publishes (see
   * canPublishFor): authors do it to their own posts, editors and admins to any they can see;
   * a contributor is told to submit the post for review.
   */
  private async findOwned(id: string, viewer: Viewer, action: PostAction): Promise<Post> {
    if (!viewer) throw unauthenticated(`You must be signed in to ${action} a post.`);
    const post = await this.findVisible(id, viewer);
    if (!post) throw notFound('Post');
    const own = post.authorId === viewer.id;
    if ((action === 'publish' || action === 'schedule') && post.hiddenAt !== null) {
      throw forbidden(
        'Moderation hid this post: it comes back when a moderator dismisses its reports.',
      );
    }
    if (action === 'publish' || action === 'schedule' || action === 'unpublish') {
      if (canPublishFor(viewer, post)) return post;
      throw forbidden(own ? SUBMIT_FOR_REVIEW : `Only the author of a post may ${action} it.`);
    }
    if (!own && !isAdmin(viewer)) throw forbidden(`Only the author of a post may ${action} it.`);
    return post;
  }

  /**
   * Puts the viewer's draft in the review queue (any role may); BAD_USER_INPUT for a published
   * or scheduled post. A post waiting there already is answered as it is; a rejected one goes
   * back to the end of the queue, its reason cleared.
   */
  async submitForReview(id: string, viewer: Viewer): Promise<Post> {
    if (!viewer) throw unauthenticated('You must be signed in to submit a post for review.');
    const post = await this.findVisible(id, viewer);
    if (!post) throw notFound('Post');
    if (post.authorId !== viewer.id) {
      throw forbidden('Only the author of a post may submit it for review.');
    }
    if (post.publishedAt !== null) throw badUserInput('The post is published already.', 'id');
    if (post.scheduledAt !== null) {
      throw badUserInput('The post is scheduled; unschedule it first.', 'id');
    }
    if (awaitsReview(post)) return post;
    const now = new Date();
    if ((await this.sql.run(this.statements.submitForReview, { id, now })) === 0) {
      return this.stored(id);
    }
    return Object.assign(post, {
      reviewState: PostReviewState.AWAITING_REVIEW,
      reviewRequestedAt: now,
      rejectionReason: null,
      updatedAt: now,
    });
  }

  /**
   * Sends a post of the review queue back to its author as a draft, with `reason` (which they
   * see): editors and admins only. BAD_USER_INPUT for a post that is not awaiting review, or a
   * reason that is blank or too long.
   */
  async reject(id: string, reason: string, viewer: Viewer): Promise<Post> {
    if (!viewer) throw unauthenticated('You must be signed in to reject a post.');
    if (!isModerator(viewer)) throw forbidden('Only editors and admins reject posts.');
    const text = reason.trim();
    const { min, max } = REJECTION_REASON_LENGTH;
    if (text.length < min || text.length > max) {
      throw badUserInput(`reason must be ${min}-${max} characters, spaces trimmed.`, 'reason');
    }
    const post = await this.findVisible(id, viewer);
    if (!post) throw notFound('Post');
    const now = new Date();
    const rejected =
      awaitsReview(post) &&
      (await this.sql.run(this.statements.reject, { id, reason: text, now })) > 0;
    if (!rejected) throw badUserInput('The post is not awaiting review.', 'id');
    return Object.assign(post, {
      reviewState: PostReviewState.REJECTED,
      reviewRequestedAt: null,
      rejectionReason: text,
      updatedAt: now,
    });
  }

  /** A page of the review queue, oldest submission first: editors and admins only. */
  async listAwaitingReview(viewer: Viewer, page: ReviewPage): Promise<PostsPage> {
    this.mayReview(viewer);
    const parameters = { first: page.first + 1 };
    const rows = page.after
      ? await this.sql.all(this.statements.awaitingReviewAfter, {
          ...parameters,
          afterRequestedAt: page.after.requestedAt,
          afterId: page.after.id,
        })
      : await this.sql.all(this.statements.awaitingReview, parameters);
    const posts = rows.map(toPost);
    return { posts: posts.slice(0, page.first), hasNextPage: posts.length > page.first };
  }

  /** How many posts await review. */
  async countAwaitingReview(): Promise<number> {
    const row = await this.sql.one(this.statements.countAwaitingReview, {});
    return Number(row?.count ?? 0);
  }

  /** UNAUTHENTICATED or FORBIDDEN unless `viewer` is an editor or an admin. */
  private mayReview(viewer: Viewer): void {
    if (!viewer) throw unauthenticated('You must be signed in to see the review queue.');
    if (!isModerator(viewer)) throw forbidden('Only editors and admins see the review queue.');
  }
}
