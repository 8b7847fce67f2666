import { ApolloServerErrorCode } from '@apollo/server/errors';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  DocumentNode,
  GraphQLError,
  GraphQLSchema,
  validate,
  ValidationContext,
  ValidationRule,
} from 'graphql';

import { DocumentLimits } from '../blog-options.interface';
import { refusal } from '../common/errors';

/** The shape limits of a document, checked before its cost. */
export const DEFAULT_DOCUMENT_LIMITS: Required<DocumentLimits> = {
  maxDepth: 12,
  maxAliases: 30,
  maxDirectives: 50,
  maxTokens: 15_000,
};

/**
 * graphql-armor's depth, alias (`__typename` included) and directive rules, reporting a
 * GRAPHQL_VALIDATION_FAILED error that names the limit instead of throwing.
 */
function documentLimitRules(limits: Required<DocumentLimits>): ValidationRule[] {
  const report =
    (limit: string, maximum: number) => (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(
        refusal(
          ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
          `${error.message.replace(/^Syntax Error: /, '')} (${limit}; the maximum is ${maximum})`,
          { limit, maximum },
        ),
      );
  const common = { exposeLimits: true, propagateOnRejection: false };
  return [
    maxDepthRule({ ...common, n: limits.maxDepth, onReject: [report('depth', limits.maxDepth)] }),
    maxAliasesRule({
      ...common,
      n: limits.maxAliases,
      allowList: [],
      onReject: [report('aliases', limits.maxAliases)],
    }),
    maxDirectivesRule({
      ...common,
      n: limits.maxDirectives,
      onReject: [report('directives', limits.maxDirectives)],
    }),
  ];
}

/**
 * The depth, alias and directive limits of a document, checked once per parsed document. The
 * token limit is the parser's (see `OperationRules.parseOptions`).
 */
export class DocumentShapeLimits {
  private readonly rules: ValidationRule[];
  private readonly errors = new WeakMap<DocumentNode, readonly GraphQLError[]>();

  constructor(limits: Required<DocumentLimits>) {
    this.rules = documentLimitRules(limits);
  }

  /** Throws the first limit `document` passes. */
  refuseOversized(schema: GraphQLSchema, document: DocumentNode): void {
    let errors = this.errors.get(document);
    if (!errors) this.errors.set(document, (errors = validate(schema, document, this.rules)));
    if (errors.length > 0) throw errors[0];
  }
}
