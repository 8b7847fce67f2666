import {
  DocumentNode,
  getOperationAST,
  GraphQLError,
  GraphQLSchema,
  parse,
  validate,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { LRUCache } from 'lru-cache';

import { badRequest, parseFailed, tooManyRequests, validationFailed } from '../common/errors';
import { TrustedDocuments } from '../documents/trusted-documents';
import { documentKeyOf, OperationRules } from '../limits/operation-rules';

/** A subscription document that parsed and validated, with its key for the operation rules. */
export interface AdmittedDocument {
  document: DocumentNode;
  key: string;
}

export interface SubscriptionCaps {
  maxSubscriptionsPerConnection: number;
  maxSubscriptionsPerClient: number;
  maxSubscriptions: number;
}

/** Documents kept parsed and validated: by count, and by the length of their text. */
const MAX_CACHED_DOCUMENTS = 500;
const MAX_CACHED_DOCUMENT_BYTES = 2 * 1024 * 1024;

/**
 * Whether a subscribe message may start a subscription: its document passes the rules HTTP
 * applies (trusted documents, validation, {@link OperationRules}) and is a subscription, and
 * the caps per connection, per client address and in all have room.
 */
export class SubscriptionAdmission {
  private open = 0;
  private readonly perClient = new Map<string, number>();
  private readonly documents = new LRUCache<string, AdmittedDocument>({
    max: MAX_CACHED_DOCUMENTS,
    maxSize: MAX_CACHED_DOCUMENT_BYTES,
    sizeCalculation: (_admitted, query) => Math.max(query.length, 1),
  });

  constructor(
    private readonly caps: SubscriptionCaps,
    readonly schema: GraphQLSchema,
    private readonly rules: OperationRules,
    private readonly trustedDocuments: TrustedDocuments,
  ) {}

  /** Subscriptions holding a slot now, on every connection. */
  get openSubscriptions(): number {
    return this.open;
  }

  /**
   * The document of `payload`, checked, or why it is refused. `onConnection` counts the
   * connection's subscriptions, this one included.
   */
  document(payload: SubscribePayload, onConnection: number): AdmittedDocument | GraphQLError[] {
    if (onConnection > this.caps.maxSubscriptionsPerConnection) {
      return [
        tooManyRequests(
          `At most ${this.caps.maxSubscriptionsPerConnection} subscriptions may be open on one connection.`,
        ),
      ];
    }
    return refusalsOf(() => {
      const query = this.trustedDocuments.documentFor(payload) ?? '';
      const admitted = this.parsed(query);
      if (Array.isArray(admitted)) return admitted;
      const operation = getOperationAST(admitted.document, payload.operationName);
      if (operation?.operation !== 'subscription') {
        return [
          badRequest(
            'Only subscriptions run over the WebSocket; send queries and mutations to POST /graphql.',
          ),
        ];
      }
      const { document, key } = admitted;
      this.rules.check(this.schema, document, key, payload.operationName, payload.variables);
      return admitted;
    });
  }

  /**
   * Takes a slot for subscription `id` of `client` into `held` (the connection's), or says
   * which cap is full. Checked and taken with no wait between, so concurrent subscribes cannot
   * pass a cap together.
   */
  take(client: string, held: Set<string>, id: string): GraphQLError | undefined {
    const ofClient = this.perClient.get(client) ?? 0;
    if (ofClient >= this.caps.maxSubscriptionsPerClient) {
      return tooManyRequests(
        `At most ${this.caps.maxSubscriptionsPerClient} subscriptions may be open from one client address.`,
      );
    }
    if (this.open >= this.caps.maxSubscriptions) {
      return tooManyRequests(
        'The server has as many subscriptions open as it serves; try again later.',
      );
    }
    this.perClient.set(client, ofClient + 1);
    this.open += 1;
    held.add(id);
    return undefined;
  }

  /** Gives back the slot of subscription `id`, if `held` has it: it completed or its socket closed. */
  release(client: string, held: Set<string>, id: string): void {
    if (!held.delete(id)) return;
    this.open -= 1;
    const left = (this.perClient.get(client) ?? 1) - 1;
    if (left > 0) this.perClient.set(client, left);
    else this.perClient.delete(client);
  }

  /**
   * The document of `query`, parsed and validated once for every subscription that sends the
   * same text (a burst of subscribes is otherwise a burst of validations), or its refusals.
   */
  private parsed(query: string): AdmittedDocument | GraphQLError[] {
    const known = this.documents.get(query);
    if (known) return known;
    let document: DocumentNode;
    try {
      document = parse(query, this.rules.parseOptions);
    } catch (error) {
      return [parseFailed((error as GraphQLError).message)];
    }
    const invalid = validate(this.schema, document);
    if (invalid.length > 0) return invalid.map((error) => validationFailed(error.message));
    const admitted = { document, key: documentKeyOf(query) };
    this.documents.set(query, admitted);
    return admitted;
  }
}

/** What `check` returns, or the GraphQLError it throws (a refusal) as the answer. */
function refusalsOf(
  check: () => AdmittedDocument | GraphQLError[],
): AdmittedDocument | GraphQLError[] {
  try {
    return check();
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
}
