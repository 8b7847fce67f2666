import {
  DocumentNode,
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
  return info.fieldNodes.some(
    (node) => node.selectionSet !== undefined && holds(node.selectionSet, name, info.fragments),
  );
}

function holds(
  set: SelectionSetNode,
  name: string,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): boolean {
  return set.selections.some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === name;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      return holds(selection.selectionSet, name, fragments, seen);
    }
    const fragment = fragments[selection.name.value];
    if (!fragment || seen.has(fragment.name.value)) return false;
    seen.add(fragment.name.value);
    return holds(fragment.selectionSet, name, fragments, seen);
  });
}
