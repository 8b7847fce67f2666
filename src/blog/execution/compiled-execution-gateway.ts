import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { GraphQLSchema } from 'graphql';

import { CompiledExecution } from './compiled-execution';

type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;

/**
 * An Apollo Server "gateway" that serves `schema()` (read when the server starts) and runs
 * operations with {@link CompiledExecution}: Apollo Server's documented way to replace its
 * executor. Parsing, validation, plugins, error formatting and HTTP handling stay Apollo's.
 * Pass it as the `gateway` option of the GraphQL module. `compiledExecutionPlugin` does the
 * same without gateway mode, and costs less garbage collection: prefer it.
 */
export function compiledExecutionGateway(
  schema: () => GraphQLSchema,
  execution: CompiledExecution,
): Gateway {
  let onSchema: Parameters<Gateway['onSchemaLoadOrUpdate']>[0] | null = null;
  return {
    onSchemaLoadOrUpdate(callback) {
      onSchema = callback;
      return () => {
        onSchema = null;
      };
    },
    async load() {
      const apiSchema = schema();
      onSchema?.({ apiSchema, coreSupergraphSdl: '' });
      return {
        executor: (async (request) =>
          execution.run({
            schema: request.schema,
            document: request.document,
            operation: request.operation,
            // The name the client sent, as Apollo's own executor passes it to graphql-js.
            operationName: request.request.operationName,
            variables: request.request.variables,
            contextValue: request.context,
            source: request.source,
            documentKey: request.queryHash,
          })) as GatewayExecutor,
      };
    },
    async stop() {},
  };
}
