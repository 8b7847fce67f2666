import { renderCommentText, renderPostContent, type RenderedContent } from './markdown';
import { XSS_PAYLOADS } from '../../../../test/fixtures/xss-payloads';
import { parsedBody, parsedHtml, purified } from '../../../../test/helpers/html-judge';

const URL_NOISE = /[\p{Cc} \u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/gu;
const HEADING_ID = /^[\p{L}\p{M}\p{N}\p{Pc}-]+$/u;
const RAW_TEXT_OR_ACTIVE = /<(script|iframe|style|object|embed|form|svg|math|meta|base|link)\b/i;

const COMMON_ELEMENTS = [
  'P',
  'BR',
  'HR',
  'STRONG',
  'EM',
  'DEL',
  'CODE',
  'PRE',
  'BLOCKQUOTE',
  'UL',
  'OL',
  'LI',
  'A',
  'TABLE',
  'THEAD',
  'TBODY',
  'TR',
  'TH',
  'TD',
  'INPUT',
];
const ATTRIBUTES: Record<string, string[]> = {
  A: ['href', 'title', 'rel'],
  IMG: ['src', 'alt', 'title'],
  OL: ['start'],
  TH: ['align'],
  TD: ['align'],
  INPUT: ['type', 'checked', 'disabled'],
  ...Object.fromEntries(['H1', 'H2', 'H3', 'H4', 'H5', 'H6'].map((heading) => [heading, ['id']])),
};

interface Flavour {
  render: (markdown: string) => RenderedContent;
  elements: Set<string>;
  /** What each URL attribute's value must be: absolute, or a fragment of the page. */
  urls: Record<string, RegExp>;
}

const FLAVOURS: Record<string, Flavour> = {
  renderPostContent: {
    render: renderPostContent,
    elements: new Set([...COMMON_ELEMENTS, 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'IMG']),
    urls: { href: /^(https?:|mailto:|#)/i, src: /^https?:/i },
  },
  renderCommentText: {
    render: renderCommentText,
    elements: new Set(COMMON_ELEMENTS),
    urls: { href: /^(https?:|mailto:|#)/i },
  },
};

/** What is wrong with the elements and attributes of `html`, as a browser reads it. */
function faultsOf(html: string, flavour: Flavour): string[] {
  const faults: string[] = [];
  for (const element of parsedBody(html).querySelectorAll('*')) {
    const tag = element.tagName;
    if (!flavour.elements.has(tag)) faults.push(`element <${tag}>`);
    for (const { name, value } of element.attributes) {
      if (!(ATTRIBUTES[tag] ?? []).includes(name)) faults.push(`attribute ${name} of <${tag}>`);
      if (/^on/i.test(name)) faults.push(`event handler ${name}`);
      const bare = value.replace(URL_NOISE, '');
      if (name !== 'title' && name !== 'alt' && /(java|vb)script:|data:/i.test(bare)) {
        faults.push(`${name}="${value}"`);
      }
      const url = flavour.urls[name];
      if (url && !url.test(value)) faults.push(`${name}="${value}" on <${tag}>`);
      if (name === 'id' && !HEADING_ID.test(value)) faults.push(`id="${value}"`);
    }
    if (tag === 'A' && element.getAttribute('rel') !== 'nofollow ugc noopener noreferrer') {
      faults.push(`<a rel="${element.getAttribute('rel')}">`);
    }
  }
  return faults;
}

describe('the XSS corpus', () => {
  it('should hold at least 220 distinct payloads', () => {
    expect(new Set(XSS_PAYLOADS).size).toBe(XSS_PAYLOADS.length);
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(220);
  });

  describe.each(Object.entries(FLAVOURS))('through %s', (_name, flavour) => {
    it.each(XSS_PAYLOADS.map((payload) => [JSON.stringify(payload).slice(0, 100), payload]))(
      '%s',
      (_title, payload) => {
        const { html } = flavour.render(payload);
        expect(purified(html)).toEqual({ html: parsedHtml(html), removed: [] });
        expect(html).not.toMatch(RAW_TEXT_OR_ACTIVE);
        expect(faultsOf(html, flavour)).toEqual([]);
      },
    );
  });
});
