import type { CorpusLine } from './corpus';
import { MISSING } from './seed';
import { W1, W2, WD1, WD2 } from './seed-webhooks';

const encode = (text: string) => Buffer.from(text).toString('base64url');
const WEBHOOK = 'id url events description enabled consecutiveFailures createdAt updatedAt';
const DELIVERY =
  'id messageId event attempt status responseCode durationMs responseSnippet error manual createdAt attemptedAt nextAttemptAt';
const LIST = `totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${WEBHOOK} } }`;
const LOG = `pageInfo { hasNextPage endCursor } edges { cursor node { ${DELIVERY} } }`;
const NEW =
  '{ url: "https://hooks.example.com/in?site=blog", events: [POST_PUBLISHED, USER_CREATED, POST_PUBLISHED], description: "  Rebuild  " }';

/**
 * Webhooks (issue 67): the list, one webhook and its log, and every mutation, with their
 * refusals. Secrets are random (shown, and sealed in the table): the normaliser numbers them. The
 * seed's webhooks aim at 127.0.0.1, which the instances refuse without a connection, so that the
 * attempts a line makes (a test, a redelivery, W2's `user.created` on every sign-up) fail at once
 * and alike, and are written before the tables are read.
 */
// prettier-ignore
export const hooking: CorpusLine[] = [
  ['webhooks: the admin', `{ webhooks { ${LIST} } }`, null, 'admin'],
  ['webhooks: a page after W1', `{ webhooks(first: 1, after: "${encode(`webhook:${W1}`)}") { ${LIST} } }`, null, 'admin'],
  ['webhooks: first 0', '{ webhooks(first: 0) { totalCount pageInfo { hasNextPage endCursor } edges { cursor } } }', null, 'admin'],
  ['webhooks: a bad cursor', '{ webhooks(after: "bm9wZQ") { totalCount } }', null, 'admin'],
  ['webhooks: a cursor of a delivery', `{ webhooks(after: "${encode(`delivery:${W1}`)}") { totalCount } }`, null, 'admin'],
  ['webhooks: the editor', '{ webhooks { totalCount } }', null, 'editor'],
  ['webhooks: an author', '{ webhooks { edges { node { id } } } }', null, 'user'],
  ['webhooks: anonymous', '{ webhooks { edges { node { id } } } }'],
  ['webhook: W1 and its log', `{ webhook(id: "${W1}") { ${WEBHOOK} deliveries { ${LOG} } } }`, null, 'admin'],
  ['webhook: a page of the log after WD2', `{ webhook(id: "${W1}") { deliveries(first: 1, after: "${encode(`delivery:${WD2}`)}") { ${LOG} } } }`, null, 'admin'],
  ['webhook: every log in one list', `{ webhooks { edges { node { id deliveries(first: 2) { ${LOG} } } } } }`, null, 'admin'],
  ['webhook: missing', `{ webhook(id: "${MISSING}") { id } }`, null, 'admin'],
  ['webhook: not an id', '{ webhook(id: "nope") { id } }', null, 'admin'],
  ['webhook: an author', `{ webhook(id: "${W1}") { id } }`, null, 'other'],
  ['createWebhook: the admin', `mutation { createWebhook(input: ${NEW}) { secret webhook { ${WEBHOOK} deliveries { ${LOG} } } } }`, null, 'admin'],
  ['createWebhook: http', 'mutation { createWebhook(input: { url: "http://hooks.example.com/", events: [POST_PUBLISHED] }) { secret } }', null, 'admin'],
  ['createWebhook: credentials in the URL', 'mutation { createWebhook(input: { url: "https://me:pw@hooks.example.com/", events: [POST_PUBLISHED] }) { secret } }', null, 'admin'],
  ['createWebhook: no events', 'mutation { createWebhook(input: { url: "https://hooks.example.com/", events: [] }) { secret } }', null, 'admin'],
  ['createWebhook: PING', 'mutation { createWebhook(input: { url: "https://hooks.example.com/", events: [PING] }) { secret } }', null, 'admin'],
  ['createWebhook: an unknown event', 'mutation { createWebhook(input: { url: "https://hooks.example.com/", events: [POST_LIKED] }) { secret } }', null, 'admin'],
  ['createWebhook: the editor', 'mutation { createWebhook(input: { url: "https://hooks.example.com/", events: [POST_PUBLISHED] }) { secret } }', null, 'editor'],
  ['createWebhook: anonymous', 'mutation { createWebhook(input: { url: "https://hooks.example.com/", events: [POST_PUBLISHED] }) { secret } }'],
  ['updateWebhook: enable W1 again', `mutation { updateWebhook(id: "${W1}", input: { enabled: true, description: "" }) { ${WEBHOOK} } }`, null, 'admin'],
  ['updateWebhook: W2 events and URL', `mutation { updateWebhook(id: "${W2}", input: { url: "https://hooks.example.com/v2", events: [COMMENT_CREATED] }) { ${WEBHOOK} } }`, null, 'admin'],
  ['updateWebhook: disable W2', `mutation { updateWebhook(id: "${W2}", input: { enabled: false }) { ${WEBHOOK} } }`, null, 'admin'],
  ['updateWebhook: a bad URL', `mutation { updateWebhook(id: "${W2}", input: { url: "ftp://x" }) { id } }`, null, 'admin'],
  ['updateWebhook: missing', `mutation { updateWebhook(id: "${MISSING}", input: { enabled: true }) { id } }`, null, 'admin'],
  ['updateWebhook: an author', `mutation { updateWebhook(id: "${W1}", input: { enabled: true }) { id } }`, null, 'user'],
  ['deleteWebhook: W1', `mutation { deleteWebhook(id: "${W1}") }`, null, 'admin'],
  ['deleteWebhook: missing', `mutation { deleteWebhook(id: "${MISSING}") }`, null, 'admin'],
  ['deleteWebhook: the editor', `mutation { deleteWebhook(id: "${W1}") }`, null, 'editor'],
  ['rotateWebhookSecret: W1', `mutation { rotateWebhookSecret(id: "${W1}") { secret webhook { ${WEBHOOK} } } }`, null, 'admin'],
  ['rotateWebhookSecret: an author', `mutation { rotateWebhookSecret(id: "${W1}") { secret } }`, null, 'user'],
  ['testWebhook: W1, disabled', `mutation { testWebhook(id: "${W1}") { ${DELIVERY} } }`, null, 'admin'],
  ['testWebhook: missing', `mutation { testWebhook(id: "${MISSING}") { id } }`, null, 'admin'],
  ['testWebhook: anonymous', `mutation { testWebhook(id: "${W1}") { id } }`],
  ['redeliverWebhook: WD1', `mutation { redeliverWebhook(deliveryId: "${WD1}") { ${DELIVERY} } }`, null, 'admin'],
  ['redeliverWebhook: missing', `mutation { redeliverWebhook(deliveryId: "${MISSING}") { id } }`, null, 'admin'],
  ['redeliverWebhook: an author', `mutation { redeliverWebhook(deliveryId: "${WD1}") { id } }`, null, 'other'],
  ['signUp: told to W2', 'mutation { signUp(input: { name: "Hook Reader", email: "hooked@example.com", password: "long enough password" }) { user { handle } } }'],
  ['introspection: the webhook enum and types', '{ a: __type(name: "WebhookEvent") { enumValues { name description } } b: __type(name: "WebhookDelivery") { fields { name type { name kind ofType { name } } } } }'],
];
