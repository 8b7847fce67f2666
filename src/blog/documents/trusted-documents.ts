import { createHash } from 'node:crypto';

import { ApolloServerErrorCode } from '@apollo/server/errors';
import { Inject, Injectable } from '@nestjs/common';

import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { ErrorCode, refusal } from '../common/errors';

/** The `extensions.code` of a `documentId` that names no trusted document. */
export const PERSISTED_QUERY_NOT_FOUND = 'PERSISTED_QUERY_NOT_FOUND';

/**
 * The `extensions.reason` of a document sent as text where only trusted documents run. Its code
 * is `BAD_REQUEST`: a request this server does not take, like a query over the WebSocket.
 */
export const TRUSTED_DOCUMENT_REQUIRED = 'TRUSTED_DOCUMENT_REQUIRED';

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** `sha256:<hex>` (GraphQL over HTTP's persisted documents) or the bare hex of the manifest. */
const DOCUMENT_ID = /^(?:sha256:)?([0-9a-fA-F]{64})$/;

/** What a request names its document by: a top-level `documentId` or `extensions.documentId`. */
export interface DocumentRequest {
  query?: unknown;
  documentId?: unknown;
  extensions?: unknown;
}

/**
 * Why `manifest` is not a map of lower-case sha256 hex hash to the document text it hashes, or
 * null when it is. The format is GraphQL Code Generator's `persisted-documents.json`.
 */
export function trustedDocumentsProblem(manifest: unknown): string | null {
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
    return 'expected a JSON object of sha256 hex hash to document text';
  }
  for (const [hash, text] of Object.entries(manifest)) {
    const name = JSON.stringify(hash.slice(0, 80));
    if (!SHA256_HEX.test(hash)) return `${name} is not a lower-case sha256 hex hash`;
    if (typeof text !== 'string') return `the document of ${name} is not a string`;
    if (createHash('sha256').update(text).digest('hex') !== hash) {
      return `the hash ${name} does not match its document`;
    }
  }
  return null;
}

/** The `documentId` a request carries, top-level first, then in its extensions. */
export function documentIdOf(request: DocumentRequest): unknown {
  if (request.documentId !== undefined && request.documentId !== null) return request.documentId;
  const extensions = request.extensions;
  if (extensions === null || typeof extensions !== 'object') return undefined;
  return (extensions as { documentId?: unknown }).documentId ?? undefined;
}

/**
 * The trusted documents (persisted documents used as an allow-list): a manifest of sha256 hash
 * to document text, checked once at start-up. Every path, HTTP and the WebSocket, asks
 * {@link documentFor} which text to run before anything is parsed. An unknown `documentId` is
 * always refused; with `only`, so is every document sent as text.
 */
@Injectable()
export class TrustedDocuments {
  /** Whether documents sent as text are refused. */
  readonly only: boolean;
  private readonly documents: ReadonlyMap<string, string>;

  constructor(@Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions) {
    const { documents = {}, only = false } = options.trustedDocuments ?? {};
    const problem = trustedDocumentsProblem(documents);
    if (problem) throw new Error(`Invalid trustedDocuments option: ${problem}`);
    this.documents = new Map(Object.entries(documents));
    this.only = only;
  }

  /** The number of trusted documents. */
  get size(): number {
    return this.documents.size;
  }

  /**
   * The document text a request runs: the trusted document its `documentId` names, else its
   * own `query` (undefined when it has none). Throws a GraphQLError (HTTP 400) for an unknown
   * id, for an id sent with a query, and, with `only`, for any request without an id.
   */
  documentFor(request: DocumentRequest): string | undefined {
    const id = documentIdOf(request);
    const query = typeof request.query === 'string' && request.query !== '' ? request.query : null;
    if (id === undefined) {
      if (this.only) {
        throw refusal(
          ErrorCode.BadRequest,
          'This server runs trusted documents only: send the documentId of your document, not its text.',
          { reason: TRUSTED_DOCUMENT_REQUIRED },
        );
      }
      return query ?? undefined;
    }
    if (query !== null) {
      throw refusal(ErrorCode.BadRequest, 'Send either a query or a documentId, not both.');
    }
    const text = typeof id === 'string' ? this.lookup(id) : undefined;
    if (text === undefined) {
      throw refusal(
        ApolloServerErrorCode.PERSISTED_QUERY_NOT_FOUND,
        'The documentId names no trusted document. Send "sha256:<hex>" or "<hex>" of a document in the manifest.',
      );
    }
    return text;
  }

  private lookup(id: string): string | undefined {
    const hash = DOCUMENT_ID.exec(id)?.[1];
    return hash === undefined ? undefined : this.documents.get(hash.toLowerCase());
  }
}
