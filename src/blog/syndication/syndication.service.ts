import { createHash } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

import { FeedChannel, FeedFormat, FeedItem, renderFeed } from './feed-documents';
import { sitemapIndexXml, urlSetXml } from './sitemap-documents';
import { FeedItemRow, syndicationSql } from './syndication.sql';
import { HANDLE_PATTERN } from '../auth/dto/sign-up.input';
import type { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import type { Validators } from '../common/conditional-get';
import { groupBy } from '../common/group-by';
import { PreparedStatements, Sql, toDate } from '../common/sql';
import { PostUrls } from '../posts/post-urls';
import { toPost } from '../posts/post.rows';
import { PostsService } from '../posts/posts.service';
import { MAX_TAG_LENGTH, tagSlug } from '../tags/tag-slug';
import { canonicalIdentifier } from '../users/user-identifiers';

/** A feed or a sitemap as it is sent: its text, its media type and its validators. */
export interface SyndicationDocument extends Validators {
  body: string;
  /** The media type, with `charset=utf-8`. */
  contentType: string;
  /** A strong entity tag, quoted: the same text, byte for byte, has the same tag. */
  etag: string;
}

/** The items of a feed: its newest posts. */
export const FEED_LENGTH = 20;
/** The most URLs of one sitemap: the protocol's limit. */
export const SITEMAP_MOST_URLS = 50_000;
/** The most sitemaps of the index: the protocol's limit (4,000 years of months). */
const SITEMAP_MOST_FILES = 50_000;
/** A tag with at most this many published posts is read from its index and sorted. */
const TAG_SORT_MOST = 1_000;
/** The rendered feeds kept, in UTF-16 code units. */
const CACHE_SIZE = 32 * 1024 * 1024;
/**
 * The longest path parameter looked at, in UTF-16 units: a longer one names nothing. A slug's 64
 * characters may each carry two marks and take two units (outside the BMP).
 */
const MOST_PARAMETER_LENGTH = 6 * MAX_TAG_LENGTH;
/** `posts-2026-01.xml`: the sitemap of one calendar month (UTC). */
const SITEMAP_FILE = /^posts-([1-9]\d{3})-(0[1-9]|1[0-2])\.xml$/;
const XML = 'application/xml; charset=utf-8';
const EPOCH = new Date(0);

/** Which posts a feed shows: an author's (by handle), a tag's (by slug), or else all. */
export interface FeedScope {
  author?: string;
  tag?: string;
}

/** The 404 of a feed or sitemap: the message says what is missing. */
export class SyndicationNotFound extends Error {}

/** One feed before it is rendered: what it is called, and its posts. */
interface FeedSource {
  /** Tells this feed from every other in the cache. */
  key: string;
  channel: Omit<FeedChannel, 'updated' | 'format'>;
  rows: FeedItemRow[];
}

/** A rendered feed, and the validator of the rows it was rendered from. */
interface CachedFeed {
  validator: string;
  body: string;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}

/** The newest of `dates`, or the epoch for none. */
function newest(dates: readonly (Date | string | null)[]): Date {
  let most = EPOCH;
  for (const value of dates) {
    const date = toDate(value);
    if (date && date.getTime() > most.getTime()) most = date;
  }
  return most;
}

/** What of a row a feed shows, so that the validator changes when the feed would. */
function versionOf(row: FeedItemRow): unknown[] {
  const { id, title, slug, excerpt, publishedAt, updatedAt, authorName, authorHandle } = row;
  return [id, title, slug, excerpt, publishedAt, updatedAt, authorName, authorHandle];
}

/**
 * The feeds (RSS 2.0, Atom 1.0, JSON Feed 1.1) of the newest published posts, of all, of an
 * author and of a tag, and the sitemap of every published post, with links under the site's
 * URL (see PostUrls); without one, every document is a 404.
 *
 * A feed is one indexed read of its {@link FEED_LENGTH} posts and their authors, without the
 * content. Those rows are the feed's validator: the document rendered from the same rows is
 * kept (an LRU of {@link CACHE_SIZE}), and only a change of them (a post published, edited,
 * unpublished or deleted, an author renamed) reads the tags and bodies and renders again. The
 * validator is read from the database on every request, so instances that share it agree.
 */
@Injectable()
export class SyndicationService {
  private readonly statements: PreparedStatements<typeof syndicationSql>;
  private readonly cache = new LRUCache<string, CachedFeed>({
    maxSize: CACHE_SIZE,
    sizeCalculation: (feed) => feed.body.length + feed.validator.length + 64,
  });
  private readonly fullContent: boolean;
  private readonly tagsOn: boolean;

  constructor(
    private readonly sql: Sql,
    private readonly urls: PostUrls,
    private readonly posts: PostsService,
    @Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions,
  ) {
    this.statements = sql.prepare(syndicationSql);
    this.fullContent = options.site?.feedContent === 'full';
    this.tagsOn = options.features?.tags !== false;
  }

  /** The feed of `scope` in `format`; SyndicationNotFound for an unknown author or tag. */
  async feed(scope: FeedScope, format: FeedFormat): Promise<SyndicationDocument> {
    const site = this.site();
    const source = await this.sourceOf(scope, site);
    const { channel, rows } = source;
    const validator = digest(
      JSON.stringify([format, this.fullContent, site, channel, rows.map(versionOf)]),
    );
    const key = `${format} ${source.key}`;
    let cached = this.cache.get(key);
    if (cached?.validator !== validator) {
      cached = { validator, body: await this.render(source, format) };
      this.cache.set(key, cached);
    }
    return {
      body: cached.body,
      contentType: FEED_MEDIA_TYPES[format],
      etag: `"${validator}"`,
      // An author's rename changes the feed, and so its date too.
      lastModified: newest(
        rows.flatMap((row) => [row.publishedAt, row.updatedAt, row.authorUpdatedAt]),
      ),
    };
  }

  /** The sitemap index: one sitemap per calendar month (UTC) with published posts. */
  async sitemapIndex(): Promise<SyndicationDocument> {
    const site = this.site();
    const rows = await this.sql.all(this.statements.months, { most: SITEMAP_MOST_FILES });
    const months = rows.map((row) => toDate(row.firstPublishedAt) as Date);
    const files = months.map((first) => {
      const month = `${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, '0')}`;
      return `${site}/sitemaps/posts-${month}.xml`;
    });
    return xmlDocument(sitemapIndexXml(files), newest(months));
  }

  /** The sitemap `file` (`posts-2026-01.xml`): the posts published that month, oldest first. */
  async sitemap(file: string): Promise<SyndicationDocument> {
    this.site();
    const month = SITEMAP_FILE.exec(file);
    if (!month) throw new SyndicationNotFound('There is no such sitemap.');
    const [year, monthNumber] = [Number(month[1]), Number(month[2])];
    const rows = await this.sql.all(this.statements.publishedBetween, {
      from: new Date(Date.UTC(year, monthNumber - 1, 1)),
      until: new Date(Date.UTC(year, monthNumber, 1)),
      first: SITEMAP_MOST_URLS,
    });
    if (rows.length === 0) throw new SyndicationNotFound('No post was published that month.');
    const entries = rows.map((row) => ({
      loc: this.urls.of(row) as string,
      lastmod: newest([row.publishedAt, row.updatedAt]),
    }));
    return xmlDocument(urlSetXml(entries), newest(entries.map((entry) => entry.lastmod)));
  }

  private site(): string {
    if (this.urls.site === null) {
      throw new SyndicationNotFound('The feeds and the sitemap need the site URL (SITE_URL).');
    }
    return this.urls.site;
  }

  private async sourceOf(scope: FeedScope, site: string): Promise<FeedSource> {
    const host = new URL(site).host;
    if (scope.author !== undefined) return this.authorSource(scope.author, site, host);
    if (scope.tag !== undefined) return this.tagSource(scope.tag, site, host);
    const rows = await this.sql.all(this.statements.newest, { first: FEED_LENGTH });
    const channel = {
      id: `${site}/feed`,
      title: host,
      description: `The newest posts of ${host}.`,
      siteUrl: site,
      feedUrl: site,
    };
    return { key: 'site', channel, rows };
  }

  private async authorSource(given: string, site: string, host: string): Promise<FeedSource> {
    const handle = given.length <= MOST_PARAMETER_LENGTH ? canonicalIdentifier(given) : '';
    const author = HANDLE_PATTERN.test(handle)
      ? await this.sql.one(this.statements.authorByHandle, { handle })
      : null;
    if (!author) throw new SyndicationNotFound('No author has this handle.');
    const rows = await this.sql.all(this.statements.newestByAuthor, {
      authorId: author.id,
      first: FEED_LENGTH,
    });
    const channel = {
      id: `${site}/authors/${author.id}/feed`,
      title: `${author.name} on ${host}`,
      description: `The newest posts of ${author.name} (@${author.handle}) on ${host}.`,
      siteUrl: site,
      feedUrl: `${site}/authors/${author.handle}`,
    };
    return { key: `author ${author.id}`, channel, rows };
  }

  private async tagSource(given: string, site: string, host: string): Promise<FeedSource> {
    const slug = given.length <= MOST_PARAMETER_LENGTH ? tagSlug(given) : '';
    const known =
      this.tagsOn && slug !== '' && [...slug].length <= MAX_TAG_LENGTH
        ? await this.sql.one(this.statements.tagCount, { slug })
        : null;
    const count = Number(known?.count ?? 0);
    if (count <= 0) throw new SyndicationNotFound('No published post has this tag.');
    const { newestTaggedBySort, newestTaggedByWalk } = this.statements;
    const rows = await this.sql.all(
      count <= TAG_SORT_MOST ? newestTaggedBySort : newestTaggedByWalk,
      {
        slug,
        first: FEED_LENGTH,
      },
    );
    const path = `${site}/tags/${encodeURIComponent(slug)}`;
    const channel = {
      id: `${path}/feed`,
      title: `#${slug} on ${host}`,
      description: `The newest posts tagged ${slug} on ${host}.`,
      siteUrl: site,
      feedUrl: path,
    };
    return { key: `tag ${slug}`, channel, rows };
  }

  /** The feed of `source`, with the tags and, for FEED_CONTENT=full, the HTML of its posts. */
  private async render(source: FeedSource, format: FeedFormat): Promise<string> {
    const ids = source.rows.map((row) => row.id);
    const [tags, bodies] = await Promise.all([
      this.tagsOn && ids.length > 0
        ? this.sql.all(this.statements.tagsOfPosts, { postIds: ids })
        : Promise.resolve([]),
      this.fullContent && ids.length > 0 ? this.posts.bodiesOf(ids) : Promise.resolve(null),
    ]);
    const tagsOf = groupBy(ids, tags, (tag) => tag.postId);
    const { siteUrl } = source.channel;
    const items = source.rows.map((row): FeedItem => {
      const post = toPost(row);
      return {
        id: `urn:uuid:${post.id}`,
        title: post.title,
        url: this.urls.of(post) as string,
        excerpt: post.excerpt,
        html: bodies?.get(post.id)?.html ?? null,
        publishedAt: post.publishedAt as Date,
        updatedAt: post.updatedAt,
        author: {
          name: row.authorName,
          feedUrl: `${siteUrl}/authors/${row.authorHandle}`,
        },
        tags: (tagsOf.get(post.id) ?? []).map((tag) => tag.slug),
      };
    });
    const updated = newest(source.rows.flatMap((row) => [row.publishedAt, row.updatedAt]));
    return renderFeed({ ...source.channel, updated, format }, items);
  }
}

/** The media type of each format. */
export const FEED_MEDIA_TYPES: Readonly<Record<FeedFormat, string>> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};

/** A sitemap document: its entity tag is a digest of its text. */
function xmlDocument(body: string, lastModified: Date): SyndicationDocument {
  return { body, contentType: XML, etag: `"${digest(body)}"`, lastModified };
}
