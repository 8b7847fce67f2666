/**
 * What became of a GraphQL request, in a few words, for the interference round's tallies. An
 * answer is `{ status, text }` (`text` may be only the head and tail of a large body) or
 * `{ error }` (no answer).
 */

/**
 * The error codes of an answer, each with the limit that refused it when it names one. Of an
 * answer that is not whole, only the codes found in the text.
 */
export function codesOf(text) {
  const codes = new Set();
  try {
    for (const { extensions = {} } of JSON.parse(text).errors ?? []) {
      const limit = typeof extensions.limit === 'string' ? ` (${extensions.limit})` : '';
      codes.add(`${extensions.code ?? 'no code'}${limit}`);
    }
  } catch {
    for (const m of text.matchAll(/"code":"([A-Z_]+)"/g)) codes.add(m[1]);
  }
  return [...codes].sort().join(', ') || 'no code';
}

/**
 * `data` (data and no error), `data + errors: <codes>`, `refused: <codes>` (no data: a limit
 * refused it, or it stopped with a clear code) or `failed: <why>` (no answer, a status of 500 or
 * more, or a masked error).
 */
export function outcomeOf(answer) {
  if (answer.error) return `failed: ${answer.error}`;
  const { status, text } = answer;
  if (!text.includes('"errors":[')) {
    return status === 200 && text.startsWith('{"data":{') ? 'data' : `failed: HTTP ${status}`;
  }
  const codes = codesOf(text);
  if (status >= 500 || codes.includes('INTERNAL_SERVER_ERROR')) {
    return `failed: HTTP ${status} ${codes}`;
  }
  return /"data":\{/.test(text) ? `data + errors: ${codes}` : `refused: ${codes}`;
}

/** Whether a limit refused the request before it ran: GraphQL over HTTP's request error, no data. */
export const refusedBeforeRunning = (answer) =>
  !answer.error && answer.status >= 400 && answer.status < 500 && !/"data":/.test(answer.text);
