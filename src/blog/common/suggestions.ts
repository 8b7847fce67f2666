/** graphql-js's hints (" Did you mean "title"?", "… the enum value …", "… or "b"?"). */
const SUGGESTION = / ?Did you mean [^?]*\?/g;

/**
 * `message` without graphql-js's "Did you mean …?" hints, which name fields, types, arguments and
 * enum values of the schema: for services that keep the schema to themselves.
 */
export function withoutSuggestions(message: string): string {
  return message.replace(SUGGESTION, '');
}
