import { createHash } from 'node:crypto';

import { ApolloServerErrorCode } from '@apollo/server/errors';
import { DocumentNode, GraphQLSchema, Kind, OperationDefinitionNode } from 'graphql';
import {
  ComplexityEstimatorArgs,
  fieldExtensionsEstimator,
  getComplexity,
  simpleEstimator,
} from 'graphql-query-complexity';
import { LRUCache } from 'lru-cache';

import type { BlogModuleOptions } from '../blog-options.interface';
import { expensiveFieldsEstimator, expensiveUsesOf } from './expensive-fields';
import { refusal } from '../common/errors';
import { DEFAULT_PAGE_SIZE } from '../common/pagination';

/** The default ceiling: the batching test's widest query costs about 9,000. */
export const DEFAULT_MAX_QUERY_COMPLEXITY = 20_000;

/** What a field that runs a COUNT of its own (not batched per parent) costs. */
export const COUNT_COMPLEXITY = 100;

/** Costs remembered across documents and variable sets; the oldest go first. */
const MAX_CACHED_COSTS = 1_000;

/**
 * The most fields an estimate visits, fragments expanded (graphql-query-complexity's own default,
 * which its estimate keeps to as well); past it the cost cannot be computed.
 */
const MAX_ESTIMATED_FIELDS = 10_000;

/** The longest key kept as it is; longer ones are kept as their hash (at most 0.5 MB in all). */
const MAX_PLAIN_KEY_LENGTH = 512;

/**
 * The key of a cost: the document's key, the operation's name and the variables' JSON, joined by
 * NUL (which neither of the first two holds), or its SHA-256 when that is longer than
 * {@link MAX_PLAIN_KEY_LENGTH}. A hash is base64 and holds no NUL, so the two kinds never meet.
 */
export function costKeyOf(
  documentKey: string,
  operationName: string,
  variables: Record<string, unknown>,
): string {
  const key = `${documentKey}\0${operationName}\0${JSON.stringify(variables)}`;
  return key.length <= MAX_PLAIN_KEY_LENGTH
    ? key
    : createHash('sha256').update(key).digest('base64');
}

/**
 * A paged field (a list, or a connection) costs 1, plus its page size times what each item
 * selects, and charges its selection at least once even at `first: 0`: an empty page still
 * costs its selection to plan and, on a connection, its `totalCount` runs whatever the page
 * size. Without that floor, aliases of `posts(first: 0) { ...BigFragment }` would cost 1 each,
 * and a large document would pass the limit for nothing.
 */
export function pagedEstimator({ args, childComplexity }: ComplexityEstimatorArgs): number | void {
  if (!('first' in args)) return undefined;
  const first = typeof args.first === 'number' && args.first >= 0 ? args.first : DEFAULT_PAGE_SIZE;
  return 1 + Math.max(first, 1) * Math.max(childComplexity, 1);
}

/** What an operation costs, and how many expensive fields it runs (see expensive-fields.ts). */
export interface OperationPrice {
  cost: number;
  expensiveFields: number;
}

/**
 * The cost limit: an operation's estimated cost (fields times page sizes, fragments expanded,
 * expensive fields by their work) must stay at most `maxComplexity`. A cost that cannot be
 * computed is refused too. Prices are remembered per document, operation and coerced variable
 * values.
 */
export class OperationCostLimit {
  private readonly costs = new LRUCache<string, OperationPrice>({ max: MAX_CACHED_COSTS });

  constructor(
    readonly maxComplexity: number,
    private readonly options: BlogModuleOptions,
  ) {}

  /** Throws GRAPHQL_VALIDATION_FAILED when `price` is over `maxComplexity`. */
  refuseCostly({ cost }: OperationPrice): void {
    if (cost <= this.maxComplexity) return;
    throw refusal(
      ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
      `The query is too complex: ${cost} exceeds the maximum of ${this.maxComplexity}. Ask for smaller pages or fewer nested lists.`,
      { limit: 'complexity', complexity: cost, maxComplexity: this.maxComplexity },
    );
  }

  /**
   * The operation's price with these variables (`variables` coerced, `raw` as the client sent
   * them); GRAPHQL_VALIDATION_FAILED when it cannot be computed. graphql-query-complexity coerces
   * the variables it is given itself: given coerced ones, it would coerce an enum's internal
   * value again, as if it were the name a client sends, and refuse it.
   */
  priceOf(
    schema: GraphQLSchema,
    document: DocumentNode,
    documentKey: string,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
    raw: Record<string, unknown> = variables,
  ): OperationPrice {
    const key = costKeyOf(documentKey, operation.name?.value ?? '', variables);
    const known = this.costs.get(key);
    if (known !== undefined) return known;
    const price = this.estimate(schema, document, operation, variables, raw);
    this.costs.set(key, price);
    return price;
  }

  private estimate(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
    raw: Record<string, unknown>,
  ): OperationPrice {
    try {
      // Only the operation that runs, with the fragments it uses.
      const single: DocumentNode = {
        kind: Kind.DOCUMENT,
        definitions: document.definitions.filter(
          (definition) => definition === operation || definition.kind !== Kind.OPERATION_DEFINITION,
        ),
      };
      const expensive = expensiveUsesOf(
        schema,
        single,
        operation,
        variables,
        this.options,
        MAX_ESTIMATED_FIELDS,
      );
      const plain = [
        fieldExtensionsEstimator(),
        pagedEstimator,
        simpleEstimator({ defaultComplexity: 1 }),
      ];
      const cost = getComplexity({
        schema,
        query: single,
        variables: raw,
        maxQueryNodes: MAX_ESTIMATED_FIELDS,
        estimators: [expensiveFieldsEstimator(expensive.work, plain), ...plain],
      });
      return { cost, expensiveFields: expensive.count };
    } catch (error) {
      throw refusal(
        ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
        `The query's cost could not be computed (${error instanceof Error ? error.message : 'unknown reason'}); it is refused. Send a smaller document.`,
        { limit: 'complexity', maxComplexity: this.maxComplexity },
      );
    }
  }
}
