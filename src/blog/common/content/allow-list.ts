import type { AllowedAttribute, Attributes, IFrame, IOptions, Transformer } from 'sanitize-html';

/** What every link of a post or comment says about itself. */
export const LINK_REL = 'nofollow ugc noopener noreferrer';
const LINK_SCHEMES = ['http', 'https', 'mailto'];
const IMAGE_SCHEMES = ['http', 'https'];

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/**
 * Markup that could end a comment, a CDATA section or a raw-text element if an attribute's value
 * were ever read as XML or moved into one: DOMPurify drops attributes whose values hold it, and so
 * does this allow-list.
 */
const MARKUP_IN_VALUE = /--!?>|\]>|<\//;

/**
 * How deep elements may nest: deeper ones are dropped, keeping their text. Markdown nests a block
 * quote or list at most `MAX_NESTING` deep on a line; raw HTML could nest without end.
 */
const MAX_ELEMENT_DEPTH = 100;

/** In the order of how often they come, as sanitize-html looks each tag up in turn. */
const COMMENT_TAGS = [
  'p',
  'a',
  'code',
  'li',
  'em',
  'strong',
  'td',
  'tr',
  'th',
  'ul',
  'ol',
  'pre',
  'blockquote',
  'del',
  'br',
  'input',
  'table',
  'thead',
  'tbody',
  'hr',
];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

const ALIGNMENTS = ['left', 'center', 'right'];
const COMMENT_ATTRIBUTES: Record<string, AllowedAttribute[]> = {
  a: ['href', 'title', 'rel'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
  input: ['type', 'checked', 'disabled'],
};

/**
 * `url` if it starts with one of `schemes` and a colon, or (for links) is a fragment of the page;
 * else undefined. Nothing may come before the scheme, not even the spaces and control characters
 * that browsers skip (`&#14; javascript:`). Relative URLs are refused: the HTML is read by clients
 * of the API on origins of their own, where a path would lead anywhere. `<` and `>` are
 * percent-encoded, as browsers send them, so that no URL holds markup (`MARKUP_IN_VALUE`).
 */
function allowedUrl(
  url: string | undefined,
  schemes: string[],
  fragments: boolean,
): string | undefined {
  if (url === undefined) return undefined;
  const scheme = SCHEME.exec(url)?.[1].toLowerCase();
  const allowed =
    (fragments && url.startsWith('#')) || (scheme !== undefined && schemes.includes(scheme));
  return allowed ? url.replace(/</g, '%3C').replace(/>/g, '%3E') : undefined;
}

function plainValue(value: string | undefined): string | undefined {
  return value === undefined || MARKUP_IN_VALUE.test(value) ? undefined : value;
}

/** `attributes` without those left undefined: sanitize-html would write them as "undefined". */
function defined(attributes: Record<string, string | undefined>): Attributes {
  return Object.fromEntries(
    Object.entries(attributes).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

const link: Transformer = (_tag, attributes) => ({
  tagName: 'a',
  attribs: defined({
    href: allowedUrl(attributes.href, LINK_SCHEMES, true),
    title: plainValue(attributes.title),
    rel: LINK_REL,
  }),
});

const image: Transformer = (_tag, attributes) => ({
  tagName: 'img',
  attribs: defined({
    src: allowedUrl(attributes.src, IMAGE_SCHEMES, false),
    alt: plainValue(attributes.alt),
    title: plainValue(attributes.title),
  }),
});

/** A task list's box, the only input kept: a checkbox that cannot be changed. */
const checkbox: Transformer = (_tag, attributes) => ({
  tagName: 'input',
  attribs: defined({
    type: 'checkbox',
    checked: 'checked' in attributes ? '' : undefined,
    disabled: '',
  }),
});

const orderedList: Transformer = (_tag, attributes) => ({
  tagName: 'ol',
  attribs: defined({
    start: /^\d{1,9}$/.test(attributes.start ?? '') ? attributes.start : undefined,
  }),
});

/** A table cell keeps an alignment of left, center or right, and no other. */
const cell: Transformer = (tag, attributes) => {
  const align = attributes.align?.toLowerCase() ?? '';
  const attribs: Attributes = ALIGNMENTS.includes(align) ? { align } : {};
  return { tagName: tag, attribs };
};

const paragraph: Transformer = () => ({ tagName: 'p', attribs: {} });

/** A link whose URL was refused becomes its text. */
function linkOnlyText(frame: IFrame): 'excludeTag' | false {
  return frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false;
}

function allowList(tags: string[], more: Partial<IOptions>): IOptions {
  return {
    allowedTags: tags,
    allowedAttributes: COMMENT_ATTRIBUTES,
    allowedClasses: {},
    allowedStyles: {},
    allowedSchemes: LINK_SCHEMES,
    allowedSchemesByTag: { img: IMAGE_SCHEMES },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // Elements whose text is not shown as text: their text goes with them.
    nonTextTags: [
      'script',
      'style',
      'textarea',
      'option',
      'noscript',
      'noembed',
      'noframes',
      'template',
      'title',
      'iframe',
      'xmp',
    ],
    enforceHtmlBoundary: false,
    nestingLimit: MAX_ELEMENT_DEPTH,
    ...more,
    transformTags: {
      a: link,
      ol: orderedList,
      th: cell,
      td: cell,
      input: checkbox,
      ...more.transformTags,
    },
  };
}

/**
 * The allow-list of a post's HTML: paragraphs, line breaks, rules, headings (h1 to h6), strong,
 * em, del, code, pre, blockquote, lists, links (href, title, rel), images (src, alt, title),
 * tables (align left, center or right on cells) and task lists' disabled checkboxes (any other
 * input becomes one). Links keep absolute http, https and mailto URLs and `#fragments`, images
 * absolute http and https ones: any other URL loses its attribute (a link becomes its text). Every
 * link gets `rel="nofollow ugc noopener noreferrer"`, whatever it said. An image without a source
 * is dropped. Anything else is dropped, keeping its text, except where its text is not text
 * (script, style, textarea …). No id, class or style attribute is kept: `outlineOf` gives headings
 * their ids after the sanitiser.
 */
export const POST_ALLOW_LIST: IOptions = allowList([...COMMENT_TAGS, ...HEADINGS, 'img'], {
  allowedAttributes: { ...COMMENT_ATTRIBUTES, img: ['src', 'alt', 'title'] },
  transformTags: { img: image },
  exclusiveFilter: (frame) => (frame.tag === 'img' && !frame.attribs.src) || linkOnlyText(frame),
});

/** The allow-list of a comment's HTML: a post's, without images, and headings made paragraphs. */
export const COMMENT_ALLOW_LIST: IOptions = allowList(COMMENT_TAGS, {
  exclusiveFilter: linkOnlyText,
  transformTags: Object.fromEntries(HEADINGS.map((heading) => [heading, paragraph])),
});
