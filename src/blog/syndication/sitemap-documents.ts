import { isoTimestamp } from '../common/timestamps';

const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A URL of a sitemap, and when what it shows last changed. */
export interface SitemapEntry {
  loc: string;
  lastmod: Date;
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** `text` as XML character data: the sitemap protocol asks for all five entities escaped. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

/** A sitemap index (sitemaps.org 0.9) of the sitemaps at `locations`. */
export function sitemapIndexXml(locations: readonly string[]): string {
  const sitemaps = locations.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>\n`);
  return `${DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${sitemaps.join('')}</sitemapindex>\n`;
}

/** A sitemap (sitemaps.org 0.9) of `entries`, each with its `lastmod`. */
export function urlSetXml(entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    ({ loc, lastmod }) =>
      `<url><loc>${escapeXml(loc)}</loc><lastmod>${isoTimestamp(lastmod.getTime())}</lastmod></url>\n`,
  );
  return `${DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}">\n${urls.join('')}</urlset>\n`;
}
