import { GraphQLSchema, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';

import { BlogFeature } from '../blog-feature';

/** A schema coordinate parsed: `Tag`, `Post.tags`, or `Query.posts(tags:)`. */
export interface SchemaCoordinate {
  type: string;
  field?: string;
  argument?: string;
}

const COORDINATE = /^([_A-Za-z]\w*)(?:\.([_A-Za-z]\w*)(?:\(([_A-Za-z]\w*):\))?)?$/;

export function parseCoordinate(text: string): SchemaCoordinate {
  const match = COORDINATE.exec(text);
  if (!match)
    throw new Error(`"${text}" is not a schema coordinate (Type, Type.field or Type.field(arg:))`);
  const [, type, field, argument] = match;
  return { type, field, argument };
}

/** Every coordinate the features name, as they wrote them. */
export function coordinatesOf(features: BlogFeature[]): string[] {
  return features.flatMap(({ schema }) => [
    ...(schema.types ?? []),
    ...(schema.fields ?? []),
    ...(schema.arguments ?? []),
  ]);
}

/** Whether `schema` has the type, field or argument that `coordinate` names. */
export function hasCoordinate(schema: GraphQLSchema, coordinate: string): boolean {
  const { type: typeName, field: fieldName, argument } = parseCoordinate(coordinate);
  const type = schema.getType(typeName);
  if (!type) return false;
  if (fieldName === undefined) return true;
  if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) return false;
  const field = type.getFields()[fieldName];
  if (!field) return false;
  if (argument === undefined) return true;
  return 'args' in field && field.args.some((arg) => arg.name === argument);
}
