import { isIP } from 'node:net';

import { refusedAddress, refusedHostName } from './address-policy';
import { WEBHOOK_URL_LENGTH } from './webhook.entity';
import { badUserInput } from '../common/errors';

/**
 * A webhook's target as stored (the URL's normal form), or BAD_USER_INPUT on `field`: an absolute
 * https URL (http too with `allowHttp`), with a host, at most WEBHOOK_URL_LENGTH characters, and
 * no user name, password or fragment, and no host that a delivery could never reach: an address
 * the send-time rules refuse (a private one unless `allowPrivate`, a metadata one always) or a
 * cloud metadata name. Where a name points is checked again at each send, when it is resolved
 * (see WebhookSender): a name may point elsewhere tomorrow.
 */
export function webhookUrl(
  raw: string,
  allowHttp: boolean,
  field: string,
  allowPrivate = false,
): string {
  const text = raw.trim();
  const schemes = allowHttp ? 'https (or http)' : 'https';
  if (text.length === 0 || text.length > WEBHOOK_URL_LENGTH) {
    throw badUserInput(`${field} must be 1-${WEBHOOK_URL_LENGTH} characters.`, field);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badUserInput(`${field} must be an absolute ${schemes} URL.`, field);
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    const hint = allowHttp ? '' : ' (http needs WEBHOOK_ALLOW_HTTP=true)';
    throw badUserInput(`${field} must be an ${schemes} URL${hint}.`, field);
  }
  if (!url.hostname) throw badUserInput(`${field} must name a host.`, field);
  if (url.username || url.password) {
    throw badUserInput(`${field} may hold no user name or password.`, field);
  }
  if (url.hash) throw badUserInput(`${field} may hold no fragment.`, field);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  const unreachable =
    refusedHostName(url.hostname) ?? (isIP(literal) ? refusedAddress(literal, allowPrivate) : null);
  if (unreachable) throw badUserInput(`${field} points to ${unreachable}.`, field);
  if (url.href.length > WEBHOOK_URL_LENGTH) {
    throw badUserInput(`${field} must be at most ${WEBHOOK_URL_LENGTH} characters.`, field);
  }
  return url.href;
}
