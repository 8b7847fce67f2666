import { context, isSpanContextValid, Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { execute, ExecutionResult } from 'graphql';

import { CompileQueue } from './compile-queue';
import { Compiled, CompiledDocuments } from './compiled-documents';
import { compileKeyOf, documentToCompile, OperationToRun } from './operation-to-run';
import type { RequestScope } from '../common/request-scope';
import { coerceVariableValues } from '../common/variable-values';

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

const tracer = trace.getTracer('blog-graphql/execution');

/** The life and response budget of an operation, which the blog keeps on its context. */
const scopeOf = (operation: OperationToRun) =>
  (operation.contextValue as { scope?: RequestScope } | undefined)?.scope;

/**
 * Runs the queries clients repeat through graphql-jit, and everything else on graphql-js, so
 * that no client can tell the two apart.
 *
 * - Only queries without the features where graphql-jit's answers differ are compiled (see
 *   `compileIneligibility`); mutations and subscriptions always run on graphql-js.
 * - Variables are coerced by graphql-js first: invalid ones get graphql-js's own errors.
 * - A compiled run that answers any error is discarded and the query runs again on graphql-js,
 *   whose answer is returned. So every error a client sees is graphql-js's, with its nodes,
 *   locations and path. A query reads only, so running it twice changes nothing; the second run
 *   starts with the whole response budget (the context's `scope`, see RequestScope), as the
 *   first did; a document whose compiled runs fail more often than not is no longer compiled.
 * - No request waits for a compile: a document is queued after `compileAfter` runs, and compiled
 *   in a later turn of the event loop, one per turn, at most `compilesPerMinute`, only when its
 *   expanded selection is at most `maxSelections` fields, from a fresh parse of its text (never
 *   Apollo's cached, shared AST). The compiled cache is bounded in entries and bytes.
 */
export class CompiledExecution {
  private readonly documents: CompiledDocuments;
  private readonly queue: CompileQueue;
  private counts = { compiled: 0, interpreted: 0 };

  constructor(options: CompiledExecutionOptions = {}) {
    const maxDocuments = options.maxDocuments ?? 500;
    this.documents = new CompiledDocuments({
      compileAfter: options.compileAfter ?? 4,
      maxDocuments,
      maxBytes: options.maxBytes ?? 32 * 1024 * 1024,
      maxSelections: options.maxSelections ?? 250,
    });
    this.queue = new CompileQueue(
      options.compilesPerMinute ?? 60,
      (key, document) => this.documents.compile(key, document),
      (key) => this.documents.forget(key),
    );
  }

  get stats(): CompiledExecutionStats {
    return {
      ...this.counts,
      documents: this.documents.size,
      bytes: this.documents.bytes,
      queued: this.queue.size,
      refused: this.documents.refused,
    };
  }

  /** Resolves once no document is waiting to be compiled. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  run(operation: OperationToRun): Promise<ExecutionResult> | ExecutionResult {
    const answer = this.compiledAnswer(operation);
    if (answer === null) return this.interpret(operation);
    return answer.then((result) => result ?? this.interpret(operation));
  }

  /**
   * Like {@link run} for a host that runs graphql-js itself (see `compiledExecutionPlugin`): the
   * compiled answer, or null where graphql-js must answer instead.
   */
  async compiledOrNull(operation: OperationToRun): Promise<ExecutionResult | null> {
    const answer = await this.compiledAnswer(operation);
    if (answer === null) this.counts.interpreted++;
    return answer;
  }

  /**
   * The compiled answer of `operation`; null, or a promise of null, where graphql-js must answer:
   * a document not compiled (this run counts towards compiling it), invalid variables, or a
   * compiled run that answered errors.
   */
  private compiledAnswer(operation: OperationToRun): Promise<ExecutionResult | null> | null {
    const key = compileKeyOf(operation);
    if (key === null) return null;
    const compiled = this.documents.get(key);
    if (compiled) return this.runCompiled(operation, key, compiled);
    if (!this.queue.has(key) && this.documents.countRun(key, operation, !this.queue.full)) {
      this.queue.add(key, documentToCompile(operation));
    }
    return null;
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
  ): Promise<ExecutionResult | null> {
    const coerced = coerceVariableValues(
      operation.schema,
      operation.operation!,
      operation.variables,
      operation.request,
    );
    if (coerced.errors) return null;
    const result = await this.traced(operation, compiled);
    if (result && !result.errors?.length) {
      compiled.answered++;
      this.counts.compiled++;
      return result;
    }
    this.documents.replaced(key, compiled);
    // graphql-js answers instead, with the whole response budget: this run's answer is dropped.
    scopeOf(operation)?.restartResponseBudget();
    return null;
  }

  /**
   * A compiled run in a span of its own; null when the compiled code throws. A span that records
   * nothing and carries no trace (no tracing SDK, no parent) is not made the active one: that
   * would build a context for nothing on every run.
   */
  private traced(operation: OperationToRun, compiled: Compiled): Promise<ExecutionResult | null> {
    const name = operation.operationName ?? operation.operation!.name?.value ?? '';
    const span = tracer.startSpan(name ? `query ${name}` : 'query', {
      attributes: {
        'graphql.operation.type': 'query',
        ...(name ? { 'graphql.operation.name': name } : {}),
        'graphql.execution.compiled': true,
      },
    });
    if (!span.isRecording() && !isSpanContextValid(span.spanContext())) {
      return this.runIn(span, operation, compiled);
    }
    return context.with(trace.setSpan(context.active(), span), () =>
      this.runIn(span, operation, compiled),
    );
  }

  private async runIn(
    span: Span,
    operation: OperationToRun,
    compiled: Compiled,
  ): Promise<ExecutionResult | null> {
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
  }
}
