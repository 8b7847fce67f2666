import {
  DocumentNode,
  GraphQLError,
  GraphQLSchema,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';

import { ErrorCode, refusal } from '../common/errors';
import { fragmentsOf } from '../common/selection';

/**
 * The field extension of a root field that must be its operation's only field: the mutations
 * that sign the viewer out everywhere or delete the account (`@Extensions({ [SOLE_ROOT_FIELD]:
 * true })`). A field after them would run as a user who is signed out or gone, and a failing
 * field after `deleteAccount` could hide the deletion behind `data: null`, so such an operation
 * is refused whole, before anything runs.
 */
export const SOLE_ROOT_FIELD = 'soleRootField';

interface RootField {
  responseName: string;
  fieldName: string;
}

/**
 * The fields an operation selects at its root, fragments and inline fragments expanded, as
 * response name and field name. `@skip` and `@include` are not read: a field that may run counts.
 */
function rootFieldsOf(document: DocumentNode, operation: OperationDefinitionNode): RootField[] {
  const fragments = fragmentsOf(document);
  const fields: RootField[] = [];
  const expanded = new Set<string>();
  const collect = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const fieldName = selection.name.value;
        fields.push({ responseName: selection.alias?.value ?? fieldName, fieldName });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!expanded.has(selection.name.value)) {
        expanded.add(selection.name.value);
        const fragment = fragments[selection.name.value];
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return fields;
}

/** The refusal of an operation that selects a {@link SOLE_ROOT_FIELD} field and anything else. */
function companyError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): GraphQLError | null {
  const rootFields = schema.getRootType(operation.operation)?.getFields();
  if (!rootFields) return null;
  const fields = rootFieldsOf(document, operation);
  const sole = fields.find(({ fieldName }) => rootFields[fieldName]?.extensions[SOLE_ROOT_FIELD]);
  if (!sole) return null;
  const alone = fields.every(
    ({ responseName, fieldName }) =>
      responseName === sole.responseName && fieldName === sole.fieldName,
  );
  if (alone) return null;
  return refusal(
    ErrorCode.BadRequest,
    `${sole.fieldName} must be the only field of its operation: fields after it would run as a user who is signed out or deleted. Send it in an operation of its own.`,
  );
}

/** A {@link SOLE_ROOT_FIELD} field must be alone at its operation's root; checked once per operation. */
export class SoleRootFieldRule {
  private readonly errors = new WeakMap<OperationDefinitionNode, GraphQLError | null>();

  /** Throws BAD_REQUEST when `operation` selects such a field beside other root fields. */
  refuseCompany(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
  ): void {
    let error = this.errors.get(operation);
    if (error === undefined) {
      this.errors.set(operation, (error = companyError(schema, document, operation)));
    }
    if (error) throw error;
  }
}
