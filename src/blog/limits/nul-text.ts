import { DocumentNode, visit } from 'graphql';

import { ErrorCode, refusal } from '../common/errors';

/** True when `value` holds a string with a NUL character, at any depth. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsNul);
  return false;
}

function documentHoldsNul(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    StringValue(node) {
      if (node.value.includes('\u0000')) found = true;
    },
  });
  return found;
}

/**
 * No text may hold a NUL character, in the document's literals or in its variables: SQLite
 * would store it, PostgreSQL refuses it. A document's literals are read once per parsed document.
 */
export class NulTextRule {
  private readonly literalNul = new WeakMap<DocumentNode, boolean>();

  /** Throws BAD_USER_INPUT, naming the variable at fault when there is one. */
  refuseNul(document: DocumentNode, variables: Record<string, unknown>): void {
    let literal = this.literalNul.get(document);
    if (literal === undefined) {
      this.literalNul.set(document, (literal = documentHoldsNul(document)));
    }
    const variable = Object.keys(variables).find((name) => holdsNul(variables[name]));
    if (!literal && variable === undefined) return;
    throw refusal(
      ErrorCode.BadUserInput,
      'Text may not contain the NUL character (U+0000).',
      variable !== undefined ? { field: variable } : {},
    );
  }
}
