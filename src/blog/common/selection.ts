import {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLResolveInfo,
  Kind,
  SelectionSetNode,
} from 'graphql';

/** A document's fragment definitions by name, as graphql-js's `collectFields` takes them. */
export function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  return fragments;
}

/**
 * True when the field being resolved selects `name` among its own fields, directly, in an inline
 * fragment or in a named fragment; `@skip` and `@include` are not weighed, so a field they
 * leave out may still count (a statement then reads a little more than it must).
 */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  return firstSelection(info, name) !== undefined;
}

/**
 * The first selection of `name` among the own fields of the field being resolved, found as
 * {@link selectsField} finds it; undefined when there is none.
 */
export function firstSelection(info: GraphQLResolveInfo, name: string): FieldNode | undefined {
  return selectionOf(info).first.get(name);
}

/**
 * True when every field that the field being resolved selects, directly, in an inline fragment or
 * in a named fragment, is one of `names` (`@skip` and `@include` are not weighed: a field they
 * leave out still counts). A statement may then leave out what only the other fields read.
 */
export function selectsOnly(info: GraphQLResolveInfo, names: ReadonlySet<string>): boolean {
  const selection = selectionOf(info);
  if (selection.missingFragment) return false;
  for (const name of selection.first.keys()) if (!names.has(name)) return false;
  return true;
}

/** What the field being resolved selects: each name's first field, in document order. */
interface Selection {
  readonly fragments: Record<string, FragmentDefinitionNode>;
  readonly first: ReadonlyMap<string, FieldNode>;
  /** A named fragment that the document does not define is spread. */
  readonly missingFragment: boolean;
}

/**
 * The selections read so far, by the field nodes they were read from. Compiled execution hands
 * every run of a document the same nodes, so a repeated query reads its selections once; the
 * nodes of a document that is no longer cached take their entries with them.
 */
const selections = new WeakMap<readonly FieldNode[], Selection>();

function selectionOf(info: GraphQLResolveInfo): Selection {
  const known = selections.get(info.fieldNodes);
  if (known && known.fragments === info.fragments) return known;
  const first = new Map<string, FieldNode>();
  let missingFragment = false;
  for (const node of info.fieldNodes) {
    if (!node.selectionSet) continue;
    for (const field of fieldsOf(node.selectionSet, info.fragments)) {
      if (!field) missingFragment = true;
      else if (!first.has(field.name.value)) first.set(field.name.value, field);
    }
  }
  const selection = { fragments: info.fragments, first, missingFragment };
  selections.set(info.fieldNodes, selection);
  return selection;
}

/**
 * The fields of `set` in document order, those of its inline fragments and of its named
 * fragments (each named fragment once) included; undefined in place of a named fragment that the
 * document does not define.
 */
function* fieldsOf(
  set: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): Generator<FieldNode | undefined> {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) yield selection;
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      yield* fieldsOf(selection.selectionSet, fragments, seen);
    } else {
      const fragment = fragments[selection.name.value];
      if (!fragment) yield undefined;
      else if (!seen.has(fragment.name.value)) {
        seen.add(fragment.name.value);
        yield* fieldsOf(fragment.selectionSet, fragments, seen);
      }
    }
  }
}
