import { Inject, Injectable } from '@nestjs/common';

import type { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';

/** The path of a post on the front-end when none is set. */
export const DEFAULT_POST_PATH = '/posts/{slug}';

/** Where the front-end shows posts: its origin (and base path), and a post's path under it. */
export interface BlogSiteOptions {
  /** The front-end's public origin, such as `https://blog.example.com`. Unset, `Post.url` is null. */
  url?: string | null;
  /** A post's path under `url`, with `{slug}` (or `{id}`) in it. Default `/posts/{slug}`. */
  postPath?: string;
  /** What a feed item carries: the post's excerpt, or its sanitised HTML. Default `excerpt`. */
  feedContent?: 'excerpt' | 'full';
}

/**
 * The site's origin without a trailing slash, or an Error naming the rule it breaks: an absolute
 * http(s) URL, without user name, password, query or fragment.
 */
export function parseSiteUrl(url: string): string | Error {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return new Error('must be an absolute URL such as https://blog.example.com');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return new Error('must be an http or https URL');
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    return new Error('may hold no user name, password, query or fragment');
  }
  return parsed.href.replace(/\/+$/, '');
}

/** The post path's rule: starts with `/` and holds `{slug}` or `{id}`; an Error otherwise. */
export function checkPostPath(path: string): string | Error {
  if (!path.startsWith('/')) return new Error('must start with /');
  if (!path.includes('{slug}') && !path.includes('{id}')) {
    return new Error('must hold {slug} or {id}');
  }
  return path;
}

/** Public addresses of posts on the front-end (`Post.url`, feeds, the sitemap). */
@Injectable()
export class PostUrls {
  /** The site's origin and base path, without a trailing slash; null when none is set. */
  readonly site: string | null;
  private readonly postPath: string;

  constructor(@Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions) {
    const { url, postPath = DEFAULT_POST_PATH } = options.site ?? {};
    const site = url ? parseSiteUrl(url) : null;
    if (site instanceof Error) throw new Error(`BlogModule site.url ${site.message}`);
    const path = checkPostPath(postPath);
    if (path instanceof Error) throw new Error(`BlogModule site.postPath ${path.message}`);
    this.site = site;
    this.postPath = path;
  }

  /** The post's public address, or null without a site. */
  of(post: { id: string; slug: string }): string | null {
    if (this.site === null) return null;
    const path = this.postPath
      .replaceAll('{slug}', encodeURIComponent(post.slug))
      .replaceAll('{id}', encodeURIComponent(post.id));
    return `${this.site}${path}`;
  }
}
