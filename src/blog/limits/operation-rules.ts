import { createHash } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { DocumentNode, getOperationAST, GraphQLSchema, OperationDefinitionNode } from 'graphql';

import { BlogModuleOptions, DocumentLimits } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { DEFAULT_DOCUMENT_LIMITS, DocumentShapeLimits } from './document-limits';
import { DEFAULT_MAX_EXPENSIVE_FIELDS, refuseManyExpensiveFields } from './expensive-fields';
import { NulTextRule } from './nul-text';
import { DEFAULT_MAX_QUERY_COMPLEXITY, OperationCostLimit } from './operation-cost';
import { SoleRootFieldRule } from './sole-root-field';
import { ErrorCode, refusal } from '../common/errors';
import { coerceVariableValues } from '../common/variable-values';

/**
 * The checks every operation passes before it runs, on HTTP and on the WebSocket alike, in this
 * order: the document's depth, aliases and directives stay within `documentLimits`; a field
 * marked `SOLE_ROOT_FIELD` is its operation's only root field (`BAD_REQUEST`); the
 * variables fit their declarations; no text holds a NUL character; the operation runs at most
 * `maxExpensiveFields` fields marked `EXPENSIVE_FIELD`; and the estimated cost stays under
 * `maxQueryComplexity`. Each refusal is a GraphQLError with a code and HTTP status 400.
 */
@Injectable()
export class OperationRules {
  readonly maxComplexity: number;
  readonly maxExpensiveFields: number;
  /** The document limits in force; `maxTokens` is for the parser (see {@link parseOptions}). */
  readonly documentLimits: Required<DocumentLimits>;
  private readonly shape: DocumentShapeLimits;
  private readonly soleRootField = new SoleRootFieldRule();
  private readonly nulText = new NulTextRule();
  private readonly cost: OperationCostLimit;

  constructor(@Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions) {
    this.maxComplexity = options.maxQueryComplexity ?? DEFAULT_MAX_QUERY_COMPLEXITY;
    this.maxExpensiveFields = options.maxExpensiveFields ?? DEFAULT_MAX_EXPENSIVE_FIELDS;
    if (!Number.isSafeInteger(this.maxExpensiveFields) || this.maxExpensiveFields < 0) {
      throw new Error(
        `BlogModule maxExpensiveFields must be a whole number of at least 0, got ${String(this.maxExpensiveFields)}`,
      );
    }
    this.documentLimits = { ...DEFAULT_DOCUMENT_LIMITS, ...options.documentLimits };
    this.shape = new DocumentShapeLimits(this.documentLimits);
    this.cost = new OperationCostLimit(this.maxComplexity, options);
  }

  /** Options for graphql-js `parse` (and Apollo's `parseOptions`): the token limit. */
  get parseOptions(): { maxTokens: number } {
    return { maxTokens: this.documentLimits.maxTokens };
  }

  /**
   * Checks a parsed and validated operation. `documentKey` identifies the document text (a
   * hash of it); the price (cost and expensive fields) is remembered per document, operation and
   * declared variable values.
   * `request`, the request the variables came with, lets later checks of the same request reuse
   * their coercion (see `coerceVariableValues`).
   */
  check(
    schema: GraphQLSchema,
    document: DocumentNode,
    documentKey: string,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | null | undefined,
    request?: object,
  ): void {
    const operation = getOperationAST(document, operationName);
    if (!operation) return;
    this.shape.refuseOversized(schema, document);
    this.soleRootField.refuseCompany(schema, document, operation);
    const coerced = coerceVariables(schema, operation, variables, request);
    this.nulText.refuseNul(document, coerced);
    const price = this.cost.priceOf(
      schema,
      document,
      documentKey,
      operation,
      coerced,
      variables ?? {},
    );
    refuseManyExpensiveFields(price.expensiveFields, this.maxExpensiveFields);
    this.cost.refuseCostly(price);
  }
}

/** Only the declared variables, coerced: what execution will see. */
function coerceVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
  request: object | undefined,
): Record<string, unknown> {
  const result = coerceVariableValues(schema, operation, variables, request);
  if (result.errors) throw refusal(ErrorCode.BadUserInput, result.errors[0].message);
  return result.coerced;
}

/** A stable key for a document's text. */
export function documentKeyOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
