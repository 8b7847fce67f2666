import DOMPurify, { type RemovedAttribute, type RemovedElement } from 'dompurify';
import { JSDOM } from 'jsdom';

const { window } = new JSDOM('<!doctype html><html><body></body></html>');
const purify = DOMPurify(window as unknown as Parameters<typeof DOMPurify>[0]);

/** `html` parsed as a browser parses a page's body, for reading its elements. */
export function parsedBody(html: string): HTMLElement {
  const body = window.document.createElement('body');
  body.innerHTML = html;
  return body;
}

/** `html` as a browser parses and serialises it, for a comparison that ignores spelling. */
export function parsedHtml(html: string): string {
  return parsedBody(html).innerHTML;
}

/**
 * What an independent sanitiser (DOMPurify under jsdom, default settings) makes of `html`, and
 * what it took out of it, each element or attribute named.
 */
export function purified(html: string): { html: string; removed: string[] } {
  const sanitised = purify.sanitize(html);
  const removed = purify.removed.map((item: RemovedElement | RemovedAttribute) =>
    'element' in item
      ? `element <${item.element.nodeName.toLowerCase()}>`
      : `attribute ${item.attribute?.name}="${item.attribute?.value}" of <${item.from.nodeName.toLowerCase()}>`,
  );
  return { html: sanitised, removed };
}

/** What DOMPurify makes of `html` when that differs from `html` as parsed; null when it changes nothing. */
export function judgedHtml(html: string): string | null {
  const judged = purified(html).html;
  return judged === parsedHtml(html) ? null : judged;
}

const FORBIDDEN_ELEMENTS = new Set([
  'SCRIPT',
  'STYLE',
  'IFRAME',
  'FRAME',
  'OBJECT',
  'EMBED',
  'FORM',
  'META',
  'BASE',
  'LINK',
  'SVG',
  'MATH',
  'TEMPLATE',
]);
const URL_ATTRIBUTES = new Set(['href', 'src', 'xlink:href', 'action', 'formaction', 'srcset']);

/**
 * What in `html`, as a browser parses it, could run script or load from a scheme other than
 * http(s) and mailto: forbidden elements, event handlers, style attributes and such URLs. The
 * text of the page is not read: an escaped `&lt;script&gt;` is text, and harmless.
 */
export function dangersIn(html: string, extra: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const element of parsedBody(html).querySelectorAll('*')) {
    if (FORBIDDEN_ELEMENTS.has(element.tagName) || extra.includes(element.tagName)) {
      found.push(`<${element.tagName.toLowerCase()}>`);
    }
    for (const { name, value } of element.attributes) {
      if (name.startsWith('on') || name === 'style') found.push(`${name}=`);
      if (URL_ATTRIBUTES.has(name) && !/^(https?:|mailto:|#)/i.test(value.trim())) {
        found.push(`${name}=${value}`);
      }
    }
  }
  return found;
}
