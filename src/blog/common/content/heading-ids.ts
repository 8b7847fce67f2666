/**
 * Lower-case names that a page's `document` or a `<form>` element answers to (their own
 * properties, those of Node, Element and HTMLElement, and `Object.prototype`'s): an element whose
 * id is one of them could shadow it for the page's scripts (DOM clobbering), so sanitisers such as
 * DOMPurify drop such ids. Event handler names (`onclick`, and those browsers add later) are
 * matched by `EVENT_HANDLER` instead.
 */
const DOM_NAMES = new Set([
  '__proto__',
  'action',
  'after',
  'all',
  'anchors',
  'animate',
  'append',
  'applets',
  'attributes',
  'autocapitalize',
  'autocomplete',
  'autocorrect',
  'autofocus',
  'before',
  'blur',
  'body',
  'charset',
  'children',
  'clear',
  'click',
  'close',
  'closest',
  'constructor',
  'contains',
  'cookie',
  'dataset',
  'dir',
  'doctype',
  'domain',
  'draggable',
  'elements',
  'embeds',
  'encoding',
  'enctype',
  'evaluate',
  'focus',
  'fonts',
  'forms',
  'fullscreen',
  'head',
  'hidden',
  'id',
  'images',
  'implementation',
  'inert',
  'lang',
  'length',
  'links',
  'location',
  'matches',
  'method',
  'name',
  'nonce',
  'normalize',
  'open',
  'part',
  'plugins',
  'popover',
  'prefix',
  'prepend',
  'prerendering',
  'referrer',
  'rel',
  'remove',
  'reset',
  'role',
  'scripts',
  'scroll',
  'slot',
  'spellcheck',
  'style',
  'submit',
  'target',
  'timeline',
  'title',
  'translate',
  'write',
  'writeln',
]);

const EVENT_HANDLER = /^on[a-z]+$/;

/** What a heading's slug keeps: letters, marks and digits of any script, `_`, `-` and spaces. */
const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu;

/**
 * The GitHub-style slug of a heading's plain text: lower case, letters and digits of any script,
 * `-` and `_` kept, each space turned into `-`, other punctuation and symbols dropped.
 */
export function slugOf(title: string): string {
  return title.toLowerCase().replace(DROPPED, '').replace(/ /g, '-');
}

/**
 * The ids of one document's headings, in order: each heading's slug (`section` when the slug is
 * empty), `section-` before a slug that names a DOM property (`section-title`, `section-cookie`,
 * `section-onboarding`), and `-1`, `-2` … after a repeated one, as GitHub numbers them.
 */
export class HeadingIds {
  private readonly taken = new Map<string, number>();

  /** The id of the next heading, whose plain text is `title`. */
  next(title: string): string {
    const slug = slugOf(title) || 'section';
    const base = DOM_NAMES.has(slug) || EVENT_HANDLER.test(slug) ? `section-${slug}` : slug;
    let id = base;
    while (this.taken.has(id)) {
      const count = (this.taken.get(base) ?? 0) + 1;
      this.taken.set(base, count);
      id = `${base}-${count}`;
    }
    this.taken.set(id, 0);
    return id;
  }
}
