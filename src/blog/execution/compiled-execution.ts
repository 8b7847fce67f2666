import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import {
  DocumentNode,
  execute,
  ExecutionResult,
  GraphQLError,
  GraphQLSchema,
  OperationTypeNode,
} from 'graphql';
import { CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LruMap } from '../common/lru-map';

/** Settings of {@link CompiledExecution}. */
export interface CompiledExecutionOptions {
  /**
   * How many times a document runs on graphql-js before it is compiled: 0 compiles at once,
   * 1 (the default) on its second use, so that a document sent once costs no compilation.
   */
  compileAfter?: number;
  /** Documents remembered, compiled or counted; the least recently used go first. */
  maxDocuments?: number;
}

/** One operation to run: what Apollo hands a gateway's executor. */
export interface OperationToRun {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  operationType?: OperationTypeNode;
  variables?: Record<string, unknown>;
  contextValue: unknown;
  /** A key of the document's text, such as Apollo's queryHash; without one, nothing is cached. */
  documentKey?: string;
}

/** What the cache holds for a document: its use count, then its compiled form (or null when it cannot compile). */
type Entry = { uses: number; compiled?: CompiledQuery | null };

/** How many operations ran compiled and on graphql-js, for tests and diagnostics. */
export interface CompiledExecutionStats {
  compiled: number;
  interpreted: number;
  documents: number;
}

const tracer = trace.getTracer('blog-graphql/execution');

/**
 * graphql-jit's errors pass `instanceof GraphQLError` but may lack `extensions`, which Apollo's
 * error formatting reads: the same error as graphql-js makes it, with its original error.
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const copy = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions ?? undefined,
  });
  return Object.assign(copy, { locations: error.locations });
}

/**
 * Runs queries and mutations through graphql-jit: a document's selection is compiled once into a
 * JavaScript function that calls the same schema resolvers as graphql-js, then every later run of
 * it skips graphql-js's per-field interpretation. Subscriptions, documents that graphql-jit
 * cannot compile, and documents seen fewer than `compileAfter` times run on graphql-js. Results,
 * errors and their original errors are the same either way, so error masking and codes do not
 * change; compiled runs get an OpenTelemetry operation span like the one graphql-js's
 * instrumentation gives.
 */
export class CompiledExecution {
  private readonly entries: LruMap<string, Entry>;
  private readonly compileAfter: number;
  private counts = { compiled: 0, interpreted: 0 };

  constructor(options: CompiledExecutionOptions = {}) {
    this.compileAfter = options.compileAfter ?? 1;
    this.entries = new LruMap(options.maxDocuments ?? 1_000);
  }

  get stats(): CompiledExecutionStats {
    return { ...this.counts, documents: this.entries.size };
  }

  run(operation: OperationToRun): Promise<ExecutionResult> | ExecutionResult {
    const compiled = this.compiledFor(operation);
    if (!compiled) {
      this.counts.interpreted++;
      return execute({
        schema: operation.schema,
        document: operation.document,
        operationName: operation.operationName,
        variableValues: operation.variables,
        contextValue: operation.contextValue,
      }) as Promise<ExecutionResult> | ExecutionResult;
    }
    this.counts.compiled++;
    const type = operation.operationType ?? 'query';
    const name = operation.operationName ?? '';
    return tracer.startActiveSpan(
      name ? `${type} ${name}` : type,
      {
        attributes: {
          'graphql.operation.type': type,
          ...(name ? { 'graphql.operation.name': name } : {}),
          'graphql.execution.compiled': true,
        },
      },
      async (span) => {
        try {
          const result = await compiled.query(
            undefined,
            operation.contextValue,
            operation.variables,
          );
          if (!result.errors?.length) return result;
          span.setStatus({ code: SpanStatusCode.ERROR, message: result.errors[0].message });
          return { ...result, errors: result.errors.map(asGraphQLJsError) };
        } finally {
          span.end();
        }
      },
    );
  }

  private compiledFor(operation: OperationToRun): CompiledQuery | null {
    const { documentKey, operationType } = operation;
    if (documentKey === undefined || operationType === OperationTypeNode.SUBSCRIPTION) return null;
    const key = `${operation.operationName ?? ''}\n${documentKey}`;
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { uses: 0 }));
    if (entry.compiled !== undefined) return entry.compiled;
    if (entry.uses++ < this.compileAfter) return null;
    try {
      const compiled = compileQuery(
        operation.schema,
        operation.document,
        operation.operationName ?? undefined,
      );
      entry.compiled = isCompiledQuery(compiled) ? compiled : null;
    } catch {
      // A document graphql-jit fails on runs on graphql-js, as one it declines does.
      entry.compiled = null;
    }
    return entry.compiled;
  }
}

type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;

/**
 * An Apollo Server "gateway" that serves `schema()` (read when the server starts) and runs
 * operations with {@link CompiledExecution}: Apollo Server's documented way to replace its
 * executor. Parsing, validation, plugins, error formatting and HTTP handling stay Apollo's.
 * Pass it as the `gateway` option of the GraphQL module.
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
            operationName: request.operationName,
            operationType: request.operation.operation,
            variables: request.request.variables,
            contextValue: request.context,
            documentKey: request.queryHash,
          })) as GatewayExecutor,
      };
    },
    async stop() {},
  };
}
