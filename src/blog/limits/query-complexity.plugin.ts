import { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { Inject } from '@nestjs/common';
import { Plugin } from '@nestjs/apollo';
import { GraphQLError } from 'graphql';
import { ComplexityEstimatorArgs, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { DEFAULT_PAGE_SIZE } from '../common/pagination';

/** The default ceiling: the batching test's widest query costs about 9,000. */
export const DEFAULT_MAX_QUERY_COMPLEXITY = 20_000;

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

  constructor(@Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions) {
    this.maximum = options.maxQueryComplexity ?? DEFAULT_MAX_QUERY_COMPLEXITY;
  }

  async requestDidStart(): Promise<GraphQLRequestListener<Record<string, unknown>>> {
    const maximum = this.maximum;
    return {
      async didResolveOperation({ request, document, schema }) {
        let complexity: number;
        try {
          complexity = getComplexity({
            schema,
            query: document,
            operationName: request.operationName ?? undefined,
            variables: request.variables ?? {},
            estimators: [pagedEstimator, simpleEstimator({ defaultComplexity: 1 })],
          });
        } catch {
          // Variables that do not fit their types: execution refuses them as BAD_USER_INPUT.
          return;
        }
        if (complexity > maximum) {
          throw new GraphQLError(
            `The query is too complex: ${complexity} exceeds the maximum of ${maximum}. Ask for smaller pages or fewer nested lists.`,
            {
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED', complexity, maxComplexity: maximum },
            },
          );
        }
      },
    };
  }
}
