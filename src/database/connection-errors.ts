/**
 * PostgreSQL's refusals that no retry can cure, by SQLSTATE: `DATABASE_URL` names a database or
 * a role that the server does not have, or the wrong password.
 */
const PERMANENT_SQLSTATES = new Set([
  '3D000', // invalid_catalog_name: the database does not exist
  '28P01', // invalid_password
  '28000', // invalid_authorization_specification: no such role, or pg_hba.conf refuses it
]);

/**
 * Node's errors that no retry can cure: the host name does not resolve (EAI_AGAIN, a resolver
 * that did not answer, is retried).
 */
const PERMANENT_NODE_CODES = new Set(['ENOTFOUND']);

/**
 * Whether a failed connection is final: a wrong database, role, password or host name. A server
 * that is not up yet (ECONNREFUSED, 57P03 "the database system is starting up", a timeout) is
 * worth retrying.
 */
export function isPermanentConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (PERMANENT_SQLSTATES.has(code) || PERMANENT_NODE_CODES.has(code))
  );
}

/** One line about a failed connection: the driver's message and its code, never the URL. */
export function describeConnectionError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const nested = error instanceof AggregateError ? error.errors : [];
  const message =
    error.message || nested.map((inner: Error) => inner.message).join('; ') || error.name;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
