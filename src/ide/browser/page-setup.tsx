// Runs before React, GraphiQL and Monaco are evaluated (ide.tsx imports it first).
//
// The page's Content-Security-Policy allows <style> elements only with the nonce of the response.
// Monaco creates its <style> elements without one and offers no option, so every <style>
// created on this page gets the nonce the server put in <meta name="csp-nonce">. Scripts get
// nothing: they must come from the service's own origin.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
const createElement = Document.prototype.createElement;
Document.prototype.createElement = function (
  this: Document,
  tagName: string,
  options?: ElementCreationOptions,
): HTMLElement {
  const element = createElement.call(this, tagName, options);
  if (nonce && element instanceof HTMLStyleElement) element.nonce = nonce;
  return element;
} as typeof Document.prototype.createElement;

// Monaco's language services run in web workers, loaded from this service (worker-src 'self'),
// never from a blob: or a CDN.
const workerBase = new URL('./', import.meta.url);
const workers: Record<string, string> = { json: 'json.worker.js', graphql: 'graphql.worker.js' };
(globalThis as unknown as { MonacoEnvironment: unknown }).MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return new Worker(new URL(workers[label] ?? 'editor.worker.js', workerBase), { name: label });
  },
};
