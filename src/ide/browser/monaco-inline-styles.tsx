// Monaco renders editor lines as HTML strings with `style` attributes (microsoft/monaco-editor#271),
// which the page's Content-Security-Policy refuses: no `'unsafe-inline'`, and no nonce or hash
// can cover an attribute. scripts/build-ide.mjs rewrites Monaco's few `innerHTML =` and
// `insertAdjacentHTML` calls of editor lines to these functions, which insert the same HTML
// with the attributes renamed and then set each style through the CSSOM (`style.cssText`),
// which CSP does not govern. Only Monaco's own line HTML goes through here.

/** A tag of the HTML: editor text is escaped by Monaco, so `<` only ever opens a tag. */
const TAG = /<[a-zA-Z][^<>]*>/g;
const STYLE = /(\s)style="/g;
const DEFERRED = 'data-csp-style';

function withoutStyleAttributes(html: unknown): string {
  return String(html).replace(TAG, (tag) => tag.replace(STYLE, `$1${DEFERRED}="`));
}

function applyDeferredStyles(root: Element | null): void {
  if (!root) return;
  for (const element of root.querySelectorAll<HTMLElement>(`[${DEFERRED}]`)) {
    element.style.cssText = element.getAttribute(DEFERRED) ?? '';
    element.removeAttribute(DEFERRED);
  }
}

/** `element.innerHTML = html`, with the style attributes applied through the CSSOM. */
export function setInnerHtml(element: Element, html: unknown): void {
  element.innerHTML = withoutStyleAttributes(html);
  applyDeferredStyles(element);
}

/** `element.insertAdjacentHTML(position, html)`, likewise. */
export function insertAdjacentHtml(
  element: Element,
  position: InsertPosition,
  html: unknown,
): void {
  element.insertAdjacentHTML(position, withoutStyleAttributes(html));
  const outside = position === 'beforebegin' || position === 'afterend';
  applyDeferredStyles(outside ? element.parentElement : element);
}
