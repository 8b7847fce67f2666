/**
 * The paths the observability reads from a request's URL, apart from the logger: the tracing SDK,
 * loaded before anything else, imports them without loading the blog module.
 */

/** Probes and scrapes: not traced, not logged at `info` when they succeed, never queued. */
export const PROBE_PATHS: ReadonlySet<string> = new Set([
  '/health',
  '/health/live',
  '/health/ready',
  '/metrics',
]);

/** A URL without its query string (GET operations carry their variables there). */
export function pathOf(url: string | undefined): string | undefined {
  const query = url?.indexOf('?') ?? -1;
  return query === -1 ? url : url!.slice(0, query);
}
