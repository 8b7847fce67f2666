import { getOperationAST, parse } from 'graphql';

import { compileIneligibility } from './compile-eligibility';

function ineligibility(source: string, maxSelections = 100, operationName?: string) {
  const document = parse(source);
  return compileIneligibility(
    document,
    getOperationAST(document, operationName) ?? undefined,
    maxSelections,
  );
}

describe('compileIneligibility', () => {
  it('should let plain queries with variables, fragments and aliases compile', () => {
    expect(
      ineligibility(
        'query Q($id: ID!, $n: Int = 3) { post(id: $id) { ...P } a: posts(first: $n) { ... on Post { id } } } fragment P on Post { id title }',
      ),
    ).toBeNull();
  });

  it.each([
    ['mutation { touch }', 'not a query'],
    ['subscription { ticks }', 'not a query'],
    ['{ posts { id @include(if: true) } }', 'directives'],
    ['{ posts { ...F @skip(if: false) } } fragment F on Post { id }', 'directives'],
    ['{ posts { ...F } } fragment F on Post { id @deprecated }', 'directives'],
    ['query($t: String) { posts(filter: { title: $t }) { id } }', 'variable inside a literal'],
    ['query($i: ID!) { posts(ids: [$i]) { id } }', 'variable inside a literal'],
    ['query($f: Int! = 2) { posts(first: $f) { id } }', 'non-null variable with a default'],
    ['{ __schema { types { name } } }', 'introspection'],
    ['{ __type(name: "Post") { name } }', 'introspection'],
  ])('should keep %s on graphql-js (%s)', (source, reason) => {
    expect(ineligibility(source)).toBe(reason);
  });

  it('should count the fields of every fragment spread, and refuse past the bound', () => {
    const source =
      '{ a: posts { ...F } b: posts { ...F } c: posts { ...F } } fragment F on Post { id title author { name } }';
    // 3 lists + 3 × 4 fields from the fragment = 15.
    expect(ineligibility(source, 15)).toBeNull();
    expect(ineligibility(source, 14)).toBe('selection too large');
  });

  it('should refuse a name that resolves to no operation', () => {
    expect(ineligibility('query A { posts { id } }', 100, 'B')).toBe('not a query');
  });
});
