import { HeadingIds } from './heading-ids';

/** A heading of a post: its id in the HTML, its level (1 to 6) and its plain text. */
export interface TocEntry {
  id: string;
  level: number;
  title: string;
}

/** Sanitised HTML with ids on its headings, its plain text and its table of contents. */
export interface Outline {
  html: string;
  text: string;
  toc: TocEntry[];
}

/**
 * A tag or a run of text of sanitize-html's output, which escapes `<` and `>` in text and in
 * attribute values, keeps no comment, quotes every attribute, and closes every element it opens,
 * in order: so `<` always opens a tag, and the next `>` closes it.
 */
const TAG_OR_TEXT = /<(\/?)([a-z][a-z0-9]*)[^>]*>|[^<]+/g;

/** What an element of the allow-list is to this pass: bits of `ELEMENTS`' values. */
const LINE = 1;
const CELL = 2;
const VOID = 4;
/** A browser does not nest it in a paragraph: it ends the paragraph first, or ignores the tag. */
const NOT_IN_PARAGRAPH = 8;
const HEADING = 16;
const PARAGRAPH = 32;
const PREFORMATTED = 64;
const BLOCK = LINE | NOT_IN_PARAGRAPH;
const ELEMENTS = new Map<string, number>([
  ['blockquote', BLOCK],
  ['br', LINE | VOID],
  ['hr', BLOCK | VOID],
  ['li', BLOCK],
  ['ol', BLOCK],
  ['p', BLOCK | PARAGRAPH],
  ['pre', BLOCK | PREFORMATTED],
  ['table', BLOCK],
  ['tbody', BLOCK],
  ['thead', BLOCK],
  ['tr', BLOCK],
  ['ul', BLOCK],
  ['td', CELL | NOT_IN_PARAGRAPH],
  ['th', CELL | NOT_IN_PARAGRAPH],
  ['img', VOID],
  ['input', VOID],
  ...[1, 2, 3, 4, 5, 6].map((level): [string, number] => [`h${level}`, BLOCK | HEADING]),
]);

const ENTITY = /&(?:#x([0-9a-f]+)|#([0-9]+)|([a-z]+));/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

interface OpenElement {
  name: string;
  kind: number;
  /** Whether its tags were left out, and so are its closing tag's. */
  dropped: boolean;
  heading: OpenHeading | null;
}

interface OpenHeading {
  level: number;
  /** Where its opening tag goes in the parts of the HTML, and its entry in the toc. */
  part: number;
  entry: number;
  text: string;
}

/**
 * One pass over HTML that sanitize-html wrote: the tags of blocks inside a paragraph left out
 * (keeping their text), as a browser's parser would in standards mode, so that it builds the same
 * tree in quirks mode (where a table can sit in a paragraph, as in DOMPurify's parser); headings
 * given their ids; the plain text and the headings read. The ids are written here, after the
 * sanitiser, from the sanitised text: no input can choose an id, and each is made only of
 * letters, marks, digits, `_` and `-`, so it needs no escaping.
 */
export function outlineOf(sanitised: string): Outline {
  const outline = new OutlineWriter(sanitised);
  TAG_OR_TEXT.lastIndex = 0;
  for (let match = TAG_OR_TEXT.exec(sanitised); match; match = TAG_OR_TEXT.exec(sanitised)) {
    if (match[2] === undefined) outline.text(match[0]);
    else outline.tag(match[2], match[1] === '/', match.index, match[0].length);
  }
  return outline.done();
}

class OutlineWriter {
  /** The HTML: runs of the sanitised HTML between the tags changed here, and their new forms. */
  private readonly parts: string[] = [];
  private copied = 0;
  private readonly toc: (TocEntry | undefined)[] = [];
  private readonly open: OpenElement[] = [];
  private readonly headings: OpenHeading[] = [];
  private readonly ids = new HeadingIds();
  private plain = '';
  private paragraphs = 0;
  private preformatted = 0;

  constructor(private readonly sanitised: string) {}

  text(html: string): void {
    const text = decodeEntities(html);
    this.write(this.preformatted > 0 || !text.includes('\n') ? text : text.replace(/\n/g, ' '));
  }

  tag(name: string, closing: boolean, at: number, length: number): void {
    const element = closing ? this.closed(name) : this.opened(name);
    if (element === undefined || element.dropped || element.kind & HEADING) {
      this.parts.push(this.sanitised.slice(this.copied, at));
      this.copied = at + length;
    }
    if (element === undefined || element.dropped) return;
    const { kind } = element;
    if (kind & LINE) this.write('\n');
    else if (kind & CELL) this.write(' ');
    if (kind & PARAGRAPH) this.paragraphs += closing ? -1 : 1;
    if (kind & PREFORMATTED) this.preformatted += closing ? -1 : 1;
    if (!(kind & HEADING)) return;
    if (closing) this.closeHeading(element, this.sanitised.slice(at, at + length));
    else this.openHeading(element, Number(name[1]));
  }

  done(): Outline {
    this.parts.push(this.sanitised.slice(this.copied));
    return {
      html: this.parts.join(''),
      text: tidyText(this.plain),
      toc: this.toc.filter((entry) => entry !== undefined),
    };
  }

  private write(text: string): void {
    this.plain += text;
    for (const heading of this.headings) heading.text += text;
  }

  private opened(name: string): OpenElement {
    const kind = ELEMENTS.get(name) ?? 0;
    const dropped = this.paragraphs > 0 && (kind & NOT_IN_PARAGRAPH) !== 0;
    const element = { name, kind, dropped, heading: null };
    if (!(kind & VOID)) this.open.push(element);
    return element;
  }

  /** The element that a closing tag of `name` closes; undefined for a stray one, left out. */
  private closed(name: string): OpenElement | undefined {
    return this.open.at(-1)?.name === name ? this.open.pop() : undefined;
  }

  private openHeading(element: OpenElement, level: number): void {
    element.heading = { level, part: this.parts.length, entry: this.toc.length, text: '' };
    this.headings.push(element.heading);
    this.parts.push('');
    this.toc.push(undefined);
  }

  private closeHeading(element: OpenElement, closingTag: string): void {
    this.parts.push(closingTag);
    const { heading } = element;
    if (heading === null) return;
    this.headings.pop();
    const title = tidyLine(heading.text);
    const id = this.ids.next(title);
    this.parts[heading.part] = `<h${heading.level} id="${id}">`;
    this.toc[heading.entry] = { id, level: heading.level, title };
  }
}

/** Text of HTML with its character references decoded. */
export function decodeEntities(html: string): string {
  return html.includes('&') ? html.replace(ENTITY, decodeEntity) : html;
}

function decodeEntity(reference: string, hex?: string, decimal?: string, name?: string): string {
  if (name !== undefined) return NAMED[name.toLowerCase()] ?? reference;
  const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
}

function tidyLine(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/** Each line's whitespace collapsed to single spaces and trimmed, blank lines dropped. */
function tidyText(text: string): string {
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
}
