import { buildSchema, GraphQLError } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';

import { SubscriptionAdmission } from './subscription-admission';
import { TrustedDocuments } from '../documents/trusted-documents';
import { OperationRules } from '../limits/operation-rules';

const schema = buildSchema(`
  type Query { hello: String }
  type Subscription { ticked: Int }
`);

describe('SubscriptionAdmission', () => {
  let check: jest.Mock;
  let admission: SubscriptionAdmission;

  beforeEach(() => {
    check = jest.fn();
    const rules = { check, parseOptions: { maxTokens: 1000 } } as unknown as OperationRules;
    const trusted = {
      documentFor: (payload: SubscribePayload) => payload.query,
    } as unknown as TrustedDocuments;
    admission = new SubscriptionAdmission(
      { maxSubscriptionsPerConnection: 2, maxSubscriptionsPerClient: 3, maxSubscriptions: 4 },
      schema,
      rules,
      trusted,
    );
  });

  const codesOf = (result: unknown) =>
    (result as GraphQLError[]).map((error) => error.extensions.code);

  it('should admit a subscription that passes the rules', () => {
    const admitted = admission.document({ query: 'subscription { ticked }' }, 1);
    expect(admitted).toMatchObject({ key: expect.any(String) });
    expect(check).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a document that does not parse', 'subscription {', 'GRAPHQL_PARSE_FAILED'],
    ['an unknown field', 'subscription { tocked }', 'GRAPHQL_VALIDATION_FAILED'],
    ['a query', '{ hello }', 'BAD_REQUEST'],
  ])('should refuse %s', (_, query, code) => {
    expect(codesOf(admission.document({ query }, 1))).toEqual([code]);
  });

  it('should refuse past the cap per connection before reading the document', () => {
    expect(codesOf(admission.document({ query: 'subscription {' }, 3))).toEqual([
      'TOO_MANY_REQUESTS',
    ]);
  });

  it("should answer the rules' refusal as the subscription's error", () => {
    check.mockImplementation(() => {
      throw new GraphQLError('Too deep.', { extensions: { code: 'BAD_USER_INPUT' } });
    });
    expect(codesOf(admission.document({ query: 'subscription { ticked }' }, 1))).toEqual([
      'BAD_USER_INPUT',
    ]);
  });

  it('should cap slots per client and in all, and give them back', () => {
    const a = new Set<string>();
    const b = new Set<string>();
    expect(['1', '2', '3'].map((id) => admission.take('a', a, id))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(admission.take('a', a, '4')?.message).toMatch(/from one client address/);
    expect(admission.take('b', b, '1')).toBeUndefined();
    expect(admission.take('b', b, '2')?.message).toMatch(/as many subscriptions open/);
    expect(admission.openSubscriptions).toBe(4);

    admission.release('a', a, '1');
    admission.release('a', a, '1');
    expect(admission.openSubscriptions).toBe(3);
    expect(admission.take('b', b, '2')).toBeUndefined();
  });
});
