import { InvalidEnvironmentError } from './env';
import { loadGraphqlConfig } from './graphql.config';
import { loadHttpConfig } from './http.config';

describe('limit settings', () => {
  it('should default to the documented limits', () => {
    expect(loadHttpConfig({})).toEqual({
      requestTimeoutMs: 10_000,
      connectionTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 2_000,
      maxConnectionsPerClient: 200,
      clientCapExempt: [],
      maxBodyBytes: 102_400,
      maxRequestsInFlight: 0,
    });
    expect(loadGraphqlConfig({}).websocket).toEqual({
      maxPayloadBytes: 1_048_576,
      maxSubscriptionsPerConnection: 50,
      maxSubscriptionsPerClient: 500,
      maxSubscriptions: 10_000,
      maxConnectionsPerClient: 100,
    });
  });

  it('should cap requests in flight at twice the pool on PostgreSQL only, unless told', () => {
    const postgres = { DATABASE_URL: 'postgres://h/db' };
    expect(loadHttpConfig({ DATABASE_URL: 'sqlite:x.sqlite' }).maxRequestsInFlight).toBe(0);
    expect(loadHttpConfig(postgres).maxRequestsInFlight).toBe(20);
    expect(loadHttpConfig({ ...postgres, DATABASE_POOL_SIZE: '4' }).maxRequestsInFlight).toBe(8);
    expect(
      loadHttpConfig({ ...postgres, DATABASE_POOL_SIZE: '40', HTTP_MAX_CONNECTIONS: '50' })
        .maxRequestsInFlight,
    ).toBe(50);
    expect(
      loadHttpConfig({ ...postgres, HTTP_MAX_REQUESTS_IN_FLIGHT: '0' }).maxRequestsInFlight,
    ).toBe(0);
    expect(loadHttpConfig({ HTTP_MAX_REQUESTS_IN_FLIGHT: '64' }).maxRequestsInFlight).toBe(64);
    expect(() =>
      loadHttpConfig({ HTTP_MAX_CONNECTIONS: '100', HTTP_MAX_REQUESTS_IN_FLIGHT: '101' }),
    ).toThrow(InvalidEnvironmentError);
    expect(() => loadHttpConfig({ HTTP_MAX_REQUESTS_IN_FLIGHT: '-1' })).toThrow(
      InvalidEnvironmentError,
    );
  });

  it('should cap an answer at 4 MiB unless GRAPHQL_MAX_RESPONSE_BYTES says otherwise', () => {
    expect(loadGraphqlConfig({}).maxResponseBytes).toBe(4_194_304);
    expect(loadGraphqlConfig({ GRAPHQL_MAX_RESPONSE_BYTES: '65536' }).maxResponseBytes).toBe(
      65_536,
    );
  });

  it('should rank the 1,000 newest matches of a search unless SEARCH_RANK_WINDOW says otherwise', () => {
    expect(loadGraphqlConfig({}).searchRankWindow).toBe(1_000);
    expect(loadGraphqlConfig({ SEARCH_RANK_WINDOW: '250' }).searchRankWindow).toBe(250);
    for (const bad of ['0', '-5', '2.5', 'all', '1000001']) {
      expect(() => loadGraphqlConfig({ SEARCH_RANK_WINDOW: bad })).toThrow(InvalidEnvironmentError);
    }
  });

  it('should let an operation run 3 expensive fields unless GRAPHQL_MAX_EXPENSIVE_FIELDS says otherwise', () => {
    expect(loadGraphqlConfig({}).maxExpensiveFields).toBe(3);
    expect(loadGraphqlConfig({ GRAPHQL_MAX_EXPENSIVE_FIELDS: '0' }).maxExpensiveFields).toBe(0);
    expect(loadGraphqlConfig({ GRAPHQL_MAX_EXPENSIVE_FIELDS: '10' }).maxExpensiveFields).toBe(10);
    for (const bad of ['-1', '2.5', 'many', '1001']) {
      expect(() => loadGraphqlConfig({ GRAPHQL_MAX_EXPENSIVE_FIELDS: bad })).toThrow(
        /GRAPHQL_MAX_EXPENSIVE_FIELDS/,
      );
    }
  });

  it('should read HTTP_CLIENT_CAP_EXEMPT as addresses and CIDR ranges, naming it when one is bad', () => {
    expect(
      loadHttpConfig({ HTTP_CLIENT_CAP_EXEMPT: ' 10.0.0.0/8, 192.0.2.7 ,fd00::/8,loopback' })
        .clientCapExempt,
    ).toEqual(['10.0.0.0/8', '192.0.2.7', 'fd00::/8', 'loopback']);
    for (const bad of ['10.0.0.0/33', 'ssr.internal', '10.0.0.1 10.0.0.2', 'everyone']) {
      expect(() => loadHttpConfig({ HTTP_CLIENT_CAP_EXEMPT: bad })).toThrow(
        /^Invalid environment variable HTTP_CLIENT_CAP_EXEMPT: expected IP addresses or CIDR ranges/,
      );
    }
  });

  it('should give one client address a tenth of HTTP_MAX_CONNECTIONS unless told otherwise', () => {
    expect(loadHttpConfig({ HTTP_MAX_CONNECTIONS: '100' }).maxConnectionsPerClient).toBe(10);
    expect(loadHttpConfig({ HTTP_MAX_CONNECTIONS: '5' }).maxConnectionsPerClient).toBe(1);
    expect(
      loadHttpConfig({ HTTP_MAX_CONNECTIONS: '100', HTTP_MAX_CONNECTIONS_PER_CLIENT: '100' })
        .maxConnectionsPerClient,
    ).toBe(100);
  });

  it('should hide schema details wherever introspection is off', () => {
    expect(loadGraphqlConfig({}).hideSchemaDetails).toBe(false);
    expect(loadGraphqlConfig({ NODE_ENV: 'production' }).hideSchemaDetails).toBe(true);
    expect(
      loadGraphqlConfig({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' })
        .hideSchemaDetails,
    ).toBe(false);
  });

  it.each([
    ['HTTP_REQUEST_TIMEOUT_MS', () => loadHttpConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' })],
    ['HTTP_MAX_CONNECTIONS', () => loadHttpConfig({ HTTP_MAX_CONNECTIONS: 'lots' })],
    [
      'HTTP_MAX_CONNECTIONS_PER_CLIENT',
      () => loadHttpConfig({ HTTP_MAX_CONNECTIONS: '100', HTTP_MAX_CONNECTIONS_PER_CLIENT: '101' }),
    ],
    ['WS_MAX_SUBSCRIPTIONS', () => loadGraphqlConfig({ WS_MAX_SUBSCRIPTIONS: '0' })],
    [
      'WS_MAX_SUBSCRIPTIONS_PER_CLIENT',
      () => loadGraphqlConfig({ WS_MAX_SUBSCRIPTIONS_PER_CLIENT: '0' }),
    ],
    ['WS_MAX_SUBSCRIPTIONS_TOTAL', () => loadGraphqlConfig({ WS_MAX_SUBSCRIPTIONS_TOTAL: 'many' })],
    ['WS_MAX_PAYLOAD_BYTES', () => loadGraphqlConfig({ WS_MAX_PAYLOAD_BYTES: '99999999999' })],
    ['GRAPHQL_MAX_RESPONSE_BYTES', () => loadGraphqlConfig({ GRAPHQL_MAX_RESPONSE_BYTES: '100' })],
    [
      'WS_MAX_CONNECTIONS_PER_CLIENT',
      () => loadGraphqlConfig({ WS_MAX_CONNECTIONS_PER_CLIENT: '-1' }),
    ],
  ])('should name %s when it is invalid', (variable, load) => {
    expect(load).toThrow(InvalidEnvironmentError);
    expect(load).toThrow(new RegExp(`^Invalid environment variable ${variable}: `));
  });
});
