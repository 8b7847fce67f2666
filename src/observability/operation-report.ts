/** One GraphQL operation over HTTP, as the logs and the metrics see it. */
export interface OperationReport {
  /** From the parsed document; null for an anonymous operation or an unparsable one. */
  operationName: string | null;
  operationType: 'query' | 'mutation' | 'subscription' | 'unknown';
  /** `partial`: some data and some errors. */
  outcome: 'success' | 'partial' | 'error';
  /** The `extensions.code` of each error the client got, in order. */
  errorCodes: string[];
  durationMs: number;
  /** The operation passed validation, so its name is a real one of the schema's clients. */
  valid: boolean;
  /** A signed-in user sent it. */
  signedIn: boolean;
}
