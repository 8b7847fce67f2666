import { buildSchema, GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';

import {
  COMMITTED_SCHEMA_FILE,
  compareSchemas,
  CONTRACT_FILE,
  generateSchema,
  loadSdl,
} from '../scripts/schema-tools';

describe('The generated schema (e2e)', () => {
  let generated: GraphQLSchema;

  beforeAll(async () => {
    generated = await generateSchema();
  });

  it('should have no breaking change against the committed schema.gql', () => {
    const committed = loadSdl(COMMITTED_SCHEMA_FILE);
    expect(committed).not.toBeNull();
    expect(compareSchemas(committed as GraphQLSchema, generated).breaking).toEqual([]);
  });

  it('should match the committed schema.gql (run `npm run schema:print` after a schema change)', () => {
    const committed = loadSdl(COMMITTED_SCHEMA_FILE) as GraphQLSchema;
    expect(printSchema(lexicographicSortSchema(generated))).toBe(
      printSchema(lexicographicSortSchema(committed)),
    );
  });

  const contract = loadSdl(CONTRACT_FILE);
  (contract || process.env.CI === 'true' ? it : it.skip)(
    'should hold the public contract with no breaking change',
    () => {
      expect(compareSchemas(contract as GraphQLSchema, generated).breaking).toEqual([]);
    },
  );

  it('should report a removed field as breaking, so that the checks above can fail', () => {
    const committed = loadSdl(COMMITTED_SCHEMA_FILE) as GraphQLSchema;
    const withoutTitle = printSchema(committed).replace(/^\s+title: String!$/m, '');
    const { breaking } = compareSchemas(committed, buildSchema(withoutTitle));
    expect(breaking).toEqual([expect.stringMatching(/^FIELD_REMOVED: \w+\.title was removed/)]);
  });
});
