import { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { Inject } from '@nestjs/common';
import { Plugin } from '@nestjs/apollo';
import { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import { ComplexityEstimatorArgs, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { DEFAULT_PAGE_SIZE } from '../common/pagination';

/** The default ceiling: the batching test's widest query costs about 9,000. */
export const DEFAULT_MAX_QUERY_COMPLEXITY = 20_000;

/** Distinct variable sets remembered per document (writes vary theirs on every call). */
const MAX_CACHED_VARIABLE_SETS = 64;

/** A list field costs its page size times what each item selects. */
export function pagedEstimator({ args, childComplexity }: ComplexityEstimatorArgs): number | void {
  if (!('first' in args)) return undefined;
  const first = typeof args.first === 'number' && args.first >= 0 ? args.first : DEFAULT_PAGE_SIZE;
  return 1 + first * Math.max(childComplexity, 1);
}

/**
 * Refuses, before anything runs, an operation whose estimated cost (fields times page sizes)
 * exceeds `maxQueryComplexity`: batching keeps statements flat, but rows still multiply with
 * nested pages.
 */
@Plugin()
export class QueryComplexityPlugin implements ApolloServerPlugin {
  private readonly maximum: number;
  /**
   * Apollo parses each distinct query text once and hands the same document back, so the cost
   * is computed once per document and set of variables, not on every request.
   */
  private readonly costs = new WeakMap<DocumentNode, Map<string, number>>();

  constructor(@Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions) {
    this.maximum = options.maxQueryComplexity ?? DEFAULT_MAX_QUERY_COMPLEXITY;
  }

  async requestDidStart(): Promise<GraphQLRequestListener<Record<string, unknown>>> {
    return {
      didResolveOperation: async ({ request, document, schema }) => {
        const cost = this.cost(schema, document, request.operationName, request.variables);
        if (cost !== null && cost > this.maximum) {
          throw new GraphQLError(
            `The query is too complex: ${cost} exceeds the maximum of ${this.maximum}. Ask for smaller pages or fewer nested lists.`,
            {
              extensions: {
                code: 'GRAPHQL_VALIDATION_FAILED',
                complexity: cost,
                maxComplexity: this.maximum,
              },
            },
          );
        }
      },
    };
  }

  /** The estimated cost, or null when the variables do not fit (execution refuses those). */
  private cost(
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | undefined,
  ): number | null {
    const key = `${operationName ?? ''}:${JSON.stringify(variables ?? {})}`;
    let byVariables = this.costs.get(document);
    const known = byVariables?.get(key);
    if (known !== undefined) return known;
    let cost: number;
    try {
      cost = getComplexity({
        schema,
        query: document,
        operationName: operationName ?? undefined,
        variables: variables ?? {},
        estimators: [pagedEstimator, simpleEstimator({ defaultComplexity: 1 })],
      });
    } catch {
      return null;
    }
    if (!byVariables) this.costs.set(document, (byVariables = new Map()));
    if (byVariables.size >= MAX_CACHED_VARIABLE_SETS) byVariables.clear();
    byVariables.set(key, cost);
    return cost;
  }
}
