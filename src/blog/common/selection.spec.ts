import {
  buildSchema,
  execute,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLResolveInfo,
  OperationDefinitionNode,
  parse,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';

import { firstSelection, selectsField, selectsOnly } from './selection';

const schema = buildSchema(`
  type Query { post: Post }
  type Post { id: ID!, title: String!, author: User! }
  type User { name: String! }
`);

/** What `look` sees in the `info` of `post`, on graphql-js and compiled. */
async function seenByPost<T>(query: string, look: (info: GraphQLResolveInfo) => T): Promise<T[]> {
  const seen: T[] = [];
  const rootValue = {
    post: (_: unknown, _context: unknown, info: GraphQLResolveInfo) => {
      seen.push(look(info));
      return { id: '1', title: 't', author: { name: 'n' } };
    },
  };
  const document = parse(query);
  (schema.getQueryType()!.getFields().post.resolve as unknown) = (
    root: typeof rootValue,
    args: unknown,
    context: unknown,
    info: GraphQLResolveInfo,
  ) => root.post(args, context, info);
  await execute({ schema, document, rootValue });
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) throw new Error('not compiled');
  await compiled.query(rootValue, {}, {});
  return seen;
}

/** Whether `post` selects `author`, as its resolver sees it on graphql-js and compiled. */
const selectsAuthor = (query: string) => seenByPost(query, (info) => selectsField(info, 'author'));

describe('selectsField', () => {
  it('should find a field selected directly', async () => {
    expect(await selectsAuthor('{ post { id author { name } } }')).toEqual([true, true]);
  });

  it('should not find a field that is not selected', async () => {
    expect(await selectsAuthor('{ post { id title } }')).toEqual([false, false]);
  });

  it('should find a field in an inline or a named fragment', async () => {
    expect(await selectsAuthor('{ post { ... on Post { author { name } } } }')).toEqual([
      true,
      true,
    ]);
    expect(
      await selectsAuthor(
        '{ post { ...A } } fragment A on Post { id ...B } fragment B on Post { author { name } }',
      ),
    ).toEqual([true, true]);
  });

  it('should not look into the selections of other fields', async () => {
    expect(await selectsAuthor('{ post { id } other: post { title } }')).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('firstSelection', () => {
  const aliasOfAuthor = (query: string) =>
    seenByPost(query, (info) => {
      const node = firstSelection(info, 'author');
      return node ? (node.alias?.value ?? node.name.value) : null;
    });

  it('should give the first selection of the field, through fragments', async () => {
    expect(
      await aliasOfAuthor(
        '{ post { id ...A a: author { name } } } fragment A on Post { b: author { name } }',
      ),
    ).toEqual(['b', 'b']);
    expect(await aliasOfAuthor('{ post { ... on Post { c: author { name } } } }')).toEqual([
      'c',
      'c',
    ]);
  });

  it('should give nothing when the field is not selected', async () => {
    expect(await aliasOfAuthor('{ post { id title } }')).toEqual([null, null]);
  });
});

describe('selectsOnly', () => {
  const onlyIdAndTitle = (query: string) =>
    seenByPost(query, (info) => selectsOnly(info, new Set(['id', 'title', 'author'])));

  it('should hold when every field selected, through fragments, is one of the names', async () => {
    expect(await onlyIdAndTitle('{ post { id title } }')).toEqual([true, true]);
    expect(
      await onlyIdAndTitle(
        '{ post { ...A ... on Post { id } } } fragment A on Post { title ...B } fragment B on Post { id }',
      ),
    ).toEqual([true, true]);
  });

  it('should not weigh the fields of the selected fields', async () => {
    expect(await onlyIdAndTitle('{ post { author { name } } }')).toEqual([true, true]);
  });

  it('should fail on any other field, wherever it is selected', async () => {
    expect(await onlyIdAndTitle('{ post { id __typename } }')).toEqual([false, false]);
    expect(await onlyIdAndTitle('{ post { ... on Post { __typename } } }')).toEqual([false, false]);
    expect(
      await onlyIdAndTitle(
        '{ post { ...A } } fragment A on Post { id ...B } fragment B on Post { __typename }',
      ),
    ).toEqual([false, false]);
  });

  it('should weigh every node of a field selected twice under one name', async () => {
    expect(await onlyIdAndTitle('{ post { id } post { __typename } }')).toEqual([false, false]);
  });

  it('should weigh a field that @skip or @include leaves out', async () => {
    expect(await onlyIdAndTitle('{ post { id __typename @skip(if: true) } }')).toEqual([
      false,
      false,
    ]);
  });
});

describe('the selections read once per field nodes', () => {
  const document = parse(
    '{ post { ...A } } fragment A on Post { id } fragment B on Post { author { name } }',
  );
  const [operation, fragmentA, fragmentB] = document.definitions as [
    OperationDefinitionNode,
    FragmentDefinitionNode,
    FragmentDefinitionNode,
  ];
  const fieldNodes = [operation.selectionSet.selections[0] as FieldNode];
  /** An `info` of `post` whose fragment A is `definition` (or none). */
  const infoWith = (definition?: FragmentDefinitionNode) =>
    ({
      fieldNodes,
      fragments: definition ? { A: { ...definition, name: fragmentA.name } } : {},
    }) as unknown as GraphQLResolveInfo;

  it('should read the nodes again when they come with other fragments', () => {
    const onlyId = infoWith(fragmentA);
    const withAuthor = infoWith(fragmentB);
    expect(selectsField(onlyId, 'author')).toBe(false);
    expect(selectsField(withAuthor, 'author')).toBe(true);
    expect(selectsOnly(onlyId, new Set(['id']))).toBe(true);
    expect(selectsOnly(withAuthor, new Set(['id']))).toBe(false);
    expect(selectsField(onlyId, 'id')).toBe(true);
  });

  it('should refuse selectsOnly when a spread fragment is not defined', () => {
    expect(selectsOnly(infoWith(), new Set(['id', 'author']))).toBe(false);
    expect(selectsField(infoWith(), 'id')).toBe(false);
  });

  it('should answer every run of a compiled query alike', async () => {
    const query = '{ post { ...A } } fragment A on Post { id author { name } }';
    const compiled = compileQuery(schema, parse(query));
    if (!isCompiledQuery(compiled)) throw new Error('not compiled');
    const seen: boolean[] = [];
    const rootValue = {
      post: (_: unknown, _context: unknown, info: GraphQLResolveInfo) => {
        seen.push(selectsField(info, 'author'), selectsOnly(info, new Set(['id'])));
        return { id: '1', title: 't', author: { name: 'n' } };
      },
    };
    for (let run = 0; run < 3; run++) await compiled.query(rootValue, {}, {});
    expect(seen).toEqual([true, false, true, false, true, false]);
  });
});
