import { parse } from 'graphql';
import { CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

import { compileIneligibility, expandedSelectionSize, Ineligibility } from './compile-eligibility';
import { DocumentToCompile, OperationToRun } from './operation-to-run';

/** A compiled document, with how its runs went: answered, and replaced by graphql-js's answer. */
export type Compiled = { query: CompiledQuery; bytes: number; answered: number; replaced: number };

/** Compiled runs replaced by graphql-js's answer before a document may be refused. */
const REPLACED_BEFORE_REFUSAL = 8;

export interface CompiledDocumentsOptions {
  compileAfter: number;
  maxDocuments: number;
  maxBytes: number;
  maxSelections: number;
}

/**
 * The compiled documents, bounded in entries and bytes, and what is known of the others: how
 * many times each has run on graphql-js, or why it will never be compiled.
 */
export class CompiledDocuments {
  private readonly compiled: LRUCache<string, Compiled>;
  private readonly seen: LRUCache<string, number | Ineligibility | 'failed'>;
  /** Documents refused so far. */
  refused = 0;

  constructor(private readonly options: CompiledDocumentsOptions) {
    this.compiled = new LRUCache({
      max: options.maxDocuments,
      maxSize: options.maxBytes,
      sizeCalculation: (entry) => entry.bytes,
    });
    this.seen = new LRUCache({ max: options.maxDocuments * 4 });
  }

  get size(): number {
    return this.compiled.size;
  }

  /** The estimated bytes held. */
  get bytes(): number {
    return this.compiled.calculatedSize;
  }

  get(key: string): Compiled | undefined {
    return this.compiled.get(key);
  }

  /**
   * Counts a run on graphql-js. True when the document is due for compiling: it has now run
   * more than `compileAfter` times, may be compiled, and `room` says it can be queued (if not,
   * it is due again at its next run).
   */
  countRun(key: string, operation: OperationToRun, room: boolean): boolean {
    const runs = this.seen.get(key);
    if (typeof runs === 'string') return false;
    const next = (runs ?? 0) + 1;
    if (next <= this.options.compileAfter) {
      this.seen.set(key, next);
      return false;
    }
    const ineligible =
      operation.source === undefined
        ? 'not a query'
        : compileIneligibility(operation.document, operation.operation, this.options.maxSelections);
    if (ineligible) {
      this.refuse(key, ineligible);
      return false;
    }
    if (!room) return false;
    this.seen.set(key, next);
    return true;
  }

  /**
   * A compiled run that graphql-js answered instead. Mostly a client's bad input (a malformed
   * id, a missing post): the document stays compiled, unless its runs fail more often than not,
   * when the double runs would cost more than compiling saves.
   */
  replaced(key: string, compiled: Compiled): void {
    if (++compiled.replaced >= REPLACED_BEFORE_REFUSAL && compiled.replaced > compiled.answered) {
      this.refuse(key, 'failed');
    }
  }

  /** Forgets a document's runs, so that it counts again from `compileAfter`. */
  forget(key: string): void {
    this.seen.delete(key);
  }

  /** Compiles a document from a fresh parse of its text, never Apollo's cached, shared AST. */
  compile(key: string, operation: DocumentToCompile): void {
    try {
      const document = parse(operation.source!);
      const name = operation.operationName ?? undefined;
      const query = compileQuery(operation.schema, document, name);
      if (!isCompiledQuery(query)) return this.refuse(key, 'failed');
      const bytes = estimateBytes(operation, this.options.maxSelections);
      this.compiled.set(key, { query, bytes, answered: 0, replaced: 0 });
      // A compiled document larger than the whole cache is not kept.
      if (!this.compiled.has(key)) this.refuse(key, 'selection too large');
    } catch {
      this.refuse(key, 'failed');
    }
  }

  private refuse(key: string, why: Ineligibility | 'failed'): void {
    this.compiled.delete(key);
    if (this.seen.get(key) !== why) this.refused++;
    this.seen.set(key, why);
  }
}

/**
 * A compiled query's size in memory, estimated from its expanded selection: measured with heap
 * snapshots on Node 26, a compiled document holds about 30 kB plus 0.2 kB per field before its
 * first run, and its closures' bytecode comes on top; this counts twice that.
 */
function estimateBytes(operation: DocumentToCompile, maxSelections: number): number {
  const fields = expandedSelectionSize(operation.document, operation.operation!, maxSelections);
  return 64 * 1024 + fields * 1024;
}
