import { Feed, Item } from 'feed';

/** The formats of a feed: RSS 2.0, Atom 1.0 and JSON Feed 1.1. */
export type FeedFormat = 'rss' | 'atom' | 'json';

/** The file name of each format, after a feed's path. */
export const FEED_FILES: Readonly<Record<FeedFormat, string>> = {
  rss: 'feed.xml',
  atom: 'feed.atom',
  json: 'feed.json',
};

/** A feed as a whole: what it is called, where it and its site are, and when it last changed. */
export interface FeedChannel {
  format: FeedFormat;
  /** A permanent IRI: Atom's `id`. */
  id: string;
  title: string;
  description: string;
  /** The site's URL. */
  siteUrl: string;
  /** Where the feed's files are, without a file: `…/authors/ada` for `…/authors/ada/feed.xml`. */
  feedUrl: string;
  /** The newest publication or edit among its items: the same items, the same date. */
  updated: Date;
}

/** One post of a feed. */
export interface FeedItem {
  /** A permanent id: `urn:uuid:<post id>`. */
  id: string;
  title: string;
  url: string;
  excerpt: string;
  /** The sanitised HTML of the post, for FEED_CONTENT=full; null otherwise. */
  html: string | null;
  publishedAt: Date;
  updatedAt: Date;
  /** The author's name, and where their feeds are (as {@link FeedChannel.feedUrl}). */
  author: { name: string; feedUrl: string };
  tags: string[];
}

const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';
const DUBLIN_CORE = 'http://purl.org/dc/elements/1.1/';
const GENERATOR = 'blog-graphql';

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Plain text as HTML, for the elements that a format reads as HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]);
}

/**
 * Text that `feed` writes as an XML text node, through xml-js: xml-js first turns every `&amp;`
 * back into `&` (so that it does not escape twice), then escapes `&`, `<` and `>`. Written with
 * each `&` as `&amp;`, the text comes out as it was, `&amp;` included.
 */
function xmlText(text: string): string {
  return text.replaceAll('&', '&amp;');
}

/**
 * Text that `feed` writes in a CDATA section: xml-js splits only the first `]]>` of it, which
 * would end the section early at the second. The later ones are split here, and xml-js splits
 * the first, so that every one is.
 */
function cdata(text: string): string {
  const first = text.indexOf(']]>');
  if (first === -1) return text;
  const rest = text.slice(first + 3).replaceAll(']]>', ']]]]><![CDATA[>');
  return `${text.slice(0, first + 3)}${rest}`;
}

/** The later of the two dates. */
const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

/**
 * The feed of `channel` with `items`, in its format, written by the `feed` package. The text
 * depends on nothing but its arguments (no clock), so that the same posts give the same bytes,
 * and so the same entity tag, on every instance.
 */
export function renderFeed(channel: FeedChannel, items: readonly FeedItem[]): string {
  const { format } = channel;
  const json = format === 'json';
  const feed = new Feed({
    id: json ? channel.id : xmlText(channel.id),
    title: json ? channel.title : xmlText(channel.title),
    description: json ? channel.description : xmlText(channel.description),
    link: channel.siteUrl,
    updated: channel.updated,
    generator: GENERATOR,
    feedLinks: { [format]: `${channel.feedUrl}/${FEED_FILES[format]}` },
  });
  const itemOf = format === 'rss' ? rssItem : format === 'atom' ? atomItem : jsonItem;
  for (const item of items) feed.addItem(itemOf(item));
  if (format === 'rss') return withDublinCore(feed.rss2());
  return format === 'atom' ? feed.atom1() : jsonFeed11(feed.json1(), items);
}

/** What every format reads alike: the link, the id, the dates and the tags. */
function commonItem(item: FeedItem): Omit<Item, 'title'> {
  return {
    id: item.id,
    link: item.url,
    date: later(item.updatedAt, item.publishedAt),
    published: item.publishedAt,
    category: item.tags.map((slug) => ({ name: slug, term: slug })),
  };
}

/**
 * RSS 2.0: a plain title, the excerpt as HTML in `description`, the HTML in `content:encoded`,
 * the author's name in `dc:creator` (RSS's own `author` must be an email address), and
 * `pubDate` the publication (`feed` takes `published` over `date`).
 */
function rssItem(item: FeedItem): Item {
  return {
    ...commonItem(item),
    title: cdata(item.title),
    description: escapeHtml(item.excerpt),
    content: item.html === null ? undefined : cdata(item.html),
    extensions: [{ name: 'dc:creator', objects: { _cdata: cdata(item.author.name) } }],
  };
}

/** Atom 1.0: `feed` marks the title and summary as HTML, so they are written as HTML. */
function atomItem(item: FeedItem): Item {
  return {
    ...commonItem(item),
    title: escapeHtml(item.title),
    description: escapeHtml(item.excerpt),
    content: item.html === null ? undefined : cdata(item.html),
    author: [{ name: xmlText(item.author.name), link: `${item.author.feedUrl}/feed.atom` }],
  };
}

function jsonItem(item: FeedItem): Item {
  return {
    ...commonItem(item),
    title: item.title,
    description: item.excerpt,
    content: item.html ?? undefined,
    author: [{ name: item.author.name, link: `${item.author.feedUrl}/feed.json` }],
  };
}

/** `feed` declares Dublin Core only with `content:encoded`; `dc:creator` needs it always. */
function withDublinCore(rss: string): string {
  const root = rss.indexOf('<rss ');
  const end = rss.indexOf('>', root);
  if (rss.slice(root, end).includes('xmlns:dc=')) return rss;
  return `${rss.slice(0, root + 4)} xmlns:dc="${DUBLIN_CORE}"${rss.slice(root + 4)}`;
}

/**
 * `feed` writes JSON Feed 1.0: one `author`, and the excerpt as `content_html` when there is no
 * HTML. JSON Feed 1.1 has `authors`, and the excerpt is plain text: `content_text`, and
 * `summary` beside the HTML.
 */
function jsonFeed11(text: string, items: readonly FeedItem[]): string {
  const feed = JSON.parse(text) as { version: string; items: Record<string, unknown>[] };
  feed.version = JSON_FEED_VERSION;
  feed.items = feed.items.map(({ author, content_html, summary, ...rest }, index) => {
    const { html, excerpt } = items[index];
    const content = html === null ? { content_text: excerpt } : { content_html, summary };
    return { ...rest, ...content, authors: author ? [author] : [] };
  });
  return JSON.stringify(feed);
}
