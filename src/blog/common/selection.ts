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
  for (const node of info.fieldNodes) {
    const found = node.selectionSet && find(node.selectionSet, name, info.fragments);
    if (found) return found;
  }
  return undefined;
}

/**
 * True when every field that the field being resolved selects, directly, in an inline fragment or
 * in a named fragment, is one of `names` (`@skip` and `@include` are not weighed: a field they
 * leave out still counts). A statement may then leave out what only the other fields read.
 */
export function selectsOnly(info: GraphQLResolveInfo, names: ReadonlySet<string>): boolean {
  return info.fieldNodes.every(
    (node) => !node.selectionSet || only(node.selectionSet, names, info.fragments),
  );
}

function only(
  set: SelectionSetNode,
  names: ReadonlySet<string>,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): boolean {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!names.has(selection.name.value)) return false;
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!only(selection.selectionSet, names, fragments, seen)) return false;
      continue;
    }
    const fragment = fragments[selection.name.value];
    if (!fragment) return false;
    if (seen.has(fragment.name.value)) continue;
    seen.add(fragment.name.value);
    if (!only(fragment.selectionSet, names, fragments, seen)) return false;
  }
  return true;
}

function find(
  set: SelectionSetNode,
  name: string,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): FieldNode | undefined {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === name) return selection;
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const found = find(selection.selectionSet, name, fragments, seen);
      if (found) return found;
      continue;
    }
    const fragment = fragments[selection.name.value];
    if (!fragment || seen.has(fragment.name.value)) continue;
    seen.add(fragment.name.value);
    const found = find(fragment.selectionSet, name, fragments, seen);
    if (found) return found;
  }
  return undefined;
}
