import { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { documentKeyOf, OperationRules } from './operation-rules';

/**
 * Applies {@link OperationRules} to every HTTP operation once Apollo has parsed and validated
 * it, before anything runs. The WebSocket server applies the same rules to its operations.
 */
@Plugin()
export class OperationLimitsPlugin implements ApolloServerPlugin {
  constructor(private readonly rules: OperationRules) {}

  async requestDidStart(): Promise<GraphQLRequestListener<Record<string, unknown>>> {
    return {
      didResolveOperation: async ({ request, document, schema, queryHash }) => {
        this.rules.check(
          schema,
          document,
          queryHash ?? documentKeyOf(request.query ?? ''),
          request.operationName,
          request.variables,
        );
      },
    };
  }
}
