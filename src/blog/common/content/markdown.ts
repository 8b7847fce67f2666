import { Marked } from 'marked';
import sanitizeHtml, { type IOptions } from 'sanitize-html';

import { COMMENT_ALLOW_LIST, POST_ALLOW_LIST } from './allow-list';
import { withBoundedNesting } from './nesting';
import { outlineOf, type TocEntry } from './outline';
import { wordCountOf } from './words';

/** Markdown made safe to show: sanitised HTML, its plain text, its headings and its word count. */
export interface RenderedContent {
  /** HTML with only the elements and attributes of the allow-list, ids on its headings. */
  html: string;
  /** The text of `html`: no tags, entities decoded, a line for each block, spaces collapsed. */
  text: string;
  /** Every heading, in order, with the id it has in `html`. */
  toc: TocEntry[];
  /** The words of `text` (see `wordCountOf`). */
  wordCount: number;
}

/**
 * The line break marked writes after a block's tag, which shows nothing: each is a text node that
 * sanitize-html would escape and copy, a seventh of its work on a post. (Raw HTML loses such a
 * line break too, which shows only where the author put blocks inside a `<pre>` of their own.)
 */
const BETWEEN_BLOCKS =
  /(<\/(?:blockquote|h[1-6]|li|ol|p|pre|table|tbody|td|th|thead|tr|ul)>|<(?:blockquote|hr|ol[^>]*|table|tbody|thead|tr|ul)>)\n/g;

/**
 * A run of characters that could be the local part of an e-mail address, too long to be one (the
 * limit is 64). At each character of such a run, marked's e-mail autolink and text rules scan to
 * the end of the run for an `@`: a paragraph of 50,000 characters `a_a_a_…` took 3.4 s. Such a run
 * is read as text, 256 characters at a time: no autolink, and no emphasis or code span opens in it.
 */
const LONG_RUN = /^[\w.!#$%&'*+/=?`{|}~-]{256}/;

/** CommonMark with GitHub's tables, strikethrough, task lists and autolinks. */
const markdown = new Marked(
  { gfm: true, breaks: false },
  {
    tokenizer: {
      url: (src) => (LONG_RUN.test(src) ? undefined : false),
      inlineText(src) {
        const run = LONG_RUN.exec(src)?.[0];
        return run === undefined ? false : { type: 'text', raw: run, text: run, escaped: false };
      },
    },
  },
);

/**
 * A post's Markdown as sanitised HTML, plain text, headings and word count. marked's HTML (raw
 * HTML in the Markdown included) goes through sanitize-html with `POST_ALLOW_LIST`; the headings
 * then get GitHub-style ids (see `HeadingIds`), listed in `toc`.
 */
export function renderPostContent(source: string): RenderedContent {
  return render(source, POST_ALLOW_LIST);
}

/**
 * A comment's Markdown: as a post's, with `COMMENT_ALLOW_LIST`, which keeps no image and makes
 * headings paragraphs; `toc` is empty.
 */
export function renderCommentText(source: string): RenderedContent {
  return render(source, COMMENT_ALLOW_LIST);
}

function render(source: string, allowList: IOptions): RenderedContent {
  // CommonMark reads U+0000 as U+FFFD.
  const bounded = withBoundedNesting(source.replace(/\0/g, '\ufffd'));
  const html = markdown.parse(bounded, { async: false }).replace(BETWEEN_BLOCKS, '$1');
  const { html: withIds, text, toc } = outlineOf(sanitizeHtml(html, allowList));
  return { html: withIds, text, toc, wordCount: wordCountOf(text) };
}
