import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import {
  DocumentNode,
  execute,
  ExecutionResult,
  GraphQLSchema,
  OperationDefinitionNode,
  parse,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

import { compileIneligibility, expandedSelectionSize, Ineligibility } from './compile-eligibility';

/** Settings of {@link CompiledExecution}. */
export interface CompiledExecutionOptions {
  /**
   * How many runs of a document on graphql-js come before it is queued for compiling: 0 queues
   * it after its first run. The default, 4, compiles what clients repeat and not what one
   * client sends a few times.
   */
  compileAfter?: number;
  /** Compiled documents kept at most; the least recently used go first. Default 500. */
  maxDocuments?: number;
  /** Estimated bytes of compiled code kept at most. Default 32 MiB. */
  maxBytes?: number;
  /** The largest selection compiled, in fields after fragments are expanded. Default 250. */
  maxSelections?: number;
  /** Compiles started per minute at most, whoever sends the documents. Default 60. */
  compilesPerMinute?: number;
}

/** One operation to run: what Apollo hands a gateway's executor. */
export interface OperationToRun {
  schema: GraphQLSchema;
  document: DocumentNode;
  /** The operation that `operationName` resolved to; undefined when it names none. */
  operation?: OperationDefinitionNode;
  operationName?: string | null;
  variables?: Record<string, unknown>;
  contextValue: unknown;
  /** The document's text, which a compile parses afresh; without it nothing is compiled. */
  source?: string;
  /** A key of the document's text, such as Apollo's queryHash; without one, nothing is cached. */
  documentKey?: string;
}

/** How operations ran, and what the compiled cache holds, for tests and diagnostics. */
export interface CompiledExecutionStats {
  /** Operations answered by compiled code. */
  compiled: number;
  /** Operations answered by graphql-js. */
  interpreted: number;
  /** Compiled documents held. */
  documents: number;
  /** Their estimated size in bytes. */
  bytes: number;
  /** Documents waiting to be compiled. */
  queued: number;
  /** Documents that will not be compiled (ineligible, failed to compile, or answered errors). */
  refused: number;
}

/** A compiled document, with how its runs went: answered, and replaced by graphql-js's answer. */
type Compiled = { query: CompiledQuery; bytes: number; answered: number; replaced: number };

const tracer = trace.getTracer('blog-graphql/execution');

/** Compiled runs replaced by graphql-js's answer before a document may be refused. */
const REPLACED_BEFORE_REFUSAL = 8;

/** Documents waiting to be compiled at most; past it, a document is queued by a later run. */
const MAX_QUEUED = 100;

type ToCompile = Pick<
  OperationToRun,
  'schema' | 'document' | 'operation' | 'operationName' | 'source'
>;

/**
 * Runs the queries clients repeat through graphql-jit, and everything else on graphql-js, so
 * that no client can tell the two apart.
 *
 * - Only queries without the features where graphql-jit's answers differ are compiled (see
 *   {@link compileIneligibility}); mutations and subscriptions always run on graphql-js.
 * - Variables are coerced by graphql-js first: invalid ones get graphql-js's own errors.
 * - A compiled run that answers any error is discarded and the query runs again on graphql-js,
 *   whose answer is returned. So every error a client sees is graphql-js's, with its nodes,
 *   locations and path. A query reads only, so running it twice changes nothing; a document
 *   whose compiled runs fail more often than not is no longer compiled.
 * - No request waits for a compile: a document is queued after `compileAfter` runs, and compiled
 *   in a later turn of the event loop, one per turn, at most `compilesPerMinute`, only when its
 *   expanded selection is at most `maxSelections` fields, from a fresh parse of its text (never
 *   Apollo's cached, shared AST). The compiled cache is bounded in entries and bytes.
 */
export class CompiledExecution {
  private readonly compileAfter: number;
  private readonly maxSelections: number;
  private readonly compilesPerMinute: number;
  private readonly compiled: LRUCache<string, Compiled>;
  /** Runs on graphql-js per document not compiled yet, or why it never will be. */
  private readonly seen: LRUCache<string, number | Ineligibility | 'failed'>;
  /** Documents waiting to be compiled: what a compile needs, never a request's context. */
  private readonly queue = new Map<string, ToCompile>();
  private scheduled: NodeJS.Immediate | null = null;
  private window = { start: 0, compiles: 0 };
  private waiters: (() => void)[] = [];
  private counts = { compiled: 0, interpreted: 0, refused: 0 };

  constructor(options: CompiledExecutionOptions = {}) {
    this.compileAfter = options.compileAfter ?? 4;
    this.maxSelections = options.maxSelections ?? 250;
    this.compilesPerMinute = options.compilesPerMinute ?? 60;
    const maxDocuments = options.maxDocuments ?? 500;
    this.compiled = new LRUCache({
      max: maxDocuments,
      maxSize: options.maxBytes ?? 32 * 1024 * 1024,
      sizeCalculation: (entry) => entry.bytes,
    });
    this.seen = new LRUCache({ max: maxDocuments * 4 });
  }

  get stats(): CompiledExecutionStats {
    return {
      ...this.counts,
      documents: this.compiled.size,
      bytes: this.compiled.calculatedSize,
      queued: this.queue.size,
    };
  }

  /** Resolves once no document is waiting to be compiled. */
  idle(): Promise<void> {
    if (!this.queue.size) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  run(operation: OperationToRun): Promise<ExecutionResult> | ExecutionResult {
    const key = cacheKey(operation);
    const compiled = key === null ? undefined : this.compiled.get(key);
    if (compiled) return this.runCompiled(operation, key!, compiled);
    if (key !== null) this.count(key, operation);
    return this.interpret(operation);
  }

  private interpret(operation: OperationToRun): Promise<ExecutionResult> | ExecutionResult {
    this.counts.interpreted++;
    return execute({
      schema: operation.schema,
      document: operation.document,
      operationName: operation.operationName,
      variableValues: operation.variables,
      contextValue: operation.contextValue,
    }) as Promise<ExecutionResult> | ExecutionResult;
  }

  private async runCompiled(
    operation: OperationToRun,
    key: string,
    compiled: Compiled,
  ): Promise<ExecutionResult> {
    const coerced = getVariableValues(
      operation.schema,
      operation.operation!.variableDefinitions ?? [],
      operation.variables ?? {},
    );
    if (coerced.errors) return this.interpret(operation);
    const name = operation.operationName ?? operation.operation!.name?.value ?? '';
    const result = await tracer.startActiveSpan(
      name ? `query ${name}` : 'query',
      {
        attributes: {
          'graphql.operation.type': 'query',
          ...(name ? { 'graphql.operation.name': name } : {}),
          'graphql.execution.compiled': true,
        },
      },
      async (span) => {
        try {
          const answer = await compiled.query.query(
            undefined,
            operation.contextValue,
            operation.variables,
          );
          if (answer.errors?.length) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: answer.errors[0].message });
          }
          return answer;
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
          return null;
        } finally {
          span.end();
        }
      },
    );
    if (result && !result.errors?.length) {
      compiled.answered++;
      this.counts.compiled++;
      return result;
    }
    // Mostly a client's bad input (a malformed id, a missing post): the document stays compiled,
    // unless its runs fail more often than not, when the double runs would cost more than
    // compiling saves.
    if (++compiled.replaced >= REPLACED_BEFORE_REFUSAL && compiled.replaced > compiled.answered) {
      this.refuse(key, 'failed');
    }
    return this.interpret(operation);
  }

  /** Counts a run on graphql-js and queues the document once it has run `compileAfter` times. */
  private count(key: string, operation: OperationToRun): void {
    const runs = this.seen.get(key);
    if (typeof runs === 'string' || this.queue.has(key)) return;
    const next = (runs ?? 0) + 1;
    if (next <= this.compileAfter) {
      this.seen.set(key, next);
      return;
    }
    const ineligible =
      operation.source === undefined
        ? 'not a query'
        : compileIneligibility(operation.document, operation.operation, this.maxSelections);
    if (ineligible) return this.refuse(key, ineligible);
    if (this.queue.size >= MAX_QUEUED) return;
    this.seen.set(key, next);
    const { schema, document, operation: definition, operationName, source } = operation;
    this.queue.set(key, { schema, document, operation: definition, operationName, source });
    this.schedule();
  }

  private refuse(key: string, why: Ineligibility | 'failed'): void {
    this.compiled.delete(key);
    if (this.seen.get(key) !== why) this.counts.refused++;
    this.seen.set(key, why);
  }

  private schedule(): void {
    if (!this.scheduled && this.queue.size) this.scheduled = setImmediate(this.compileNext);
  }

  /** Compiles one queued document per turn of the event loop, within the budget per minute. */
  private readonly compileNext = (): void => {
    this.scheduled = null;
    const [entry] = this.queue;
    if (!entry) return;
    const [key, operation] = entry;
    this.queue.delete(key);
    const now = Date.now();
    if (now - this.window.start >= 60_000) this.window = { start: now, compiles: 0 };
    if (this.window.compiles < this.compilesPerMinute) {
      this.window.compiles++;
      this.compile(key, operation);
    } else {
      // Over budget: forgotten, so a later run counts again from `compileAfter`.
      this.seen.delete(key);
    }
    this.schedule();
    if (!this.queue.size) this.waiters.splice(0).forEach((resolve) => resolve());
  };

  private compile(key: string, operation: ToCompile): void {
    try {
      const document = parse(operation.source!);
      const name = operation.operationName ?? undefined;
      const query = compileQuery(operation.schema, document, name);
      if (!isCompiledQuery(query)) return this.refuse(key, 'failed');
      const bytes = estimateBytes(operation, this.maxSelections);
      this.compiled.set(key, { query, bytes, answered: 0, replaced: 0 });
      // A compiled document larger than the whole cache is not kept.
      if (!this.compiled.has(key)) this.refuse(key, 'selection too large');
    } catch {
      this.refuse(key, 'failed');
    }
  }
}

/** The cache key of an operation that may be compiled, or null for one that never is. */
function cacheKey(operation: OperationToRun): string | null {
  if (operation.documentKey === undefined || operation.operation?.operation !== 'query') {
    return null;
  }
  return `${operation.operationName ?? ''}\n${operation.documentKey}`;
}

/**
 * A compiled query's size in memory, estimated from its expanded selection: measured with heap
 * snapshots on Node 26, a compiled document holds about 30 kB plus 0.2 kB per field before its
 * first run, and its closures' bytecode comes on top; this counts twice that.
 */
function estimateBytes(operation: ToCompile, maxSelections: number): number {
  const fields = expandedSelectionSize(operation.document, operation.operation!, maxSelections);
  return 64 * 1024 + fields * 1024;
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
