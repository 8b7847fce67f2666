import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { ClientRequest, IncomingMessage, request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, LookupFunction } from 'node:net';

import { refusedAddress, refusedHostName } from './address-policy';
import { RESPONSE_SNIPPET_BYTES } from './webhook-delivery.entity';

/** One signed POST to a webhook. */
export interface OutgoingDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What the network may be used for: see BlogWebhookOptions. */
export interface SendPolicy {
  /** From the start (the DNS look-up) to the end of the answer's first 1 kB. */
  timeoutMs: number;
  allowHttp: boolean;
  allowPrivateAddresses: boolean;
}

/** How one attempt went. */
export interface SendOutcome {
  /** A 2xx answer. */
  ok: boolean;
  responseCode: number | null;
  /** Null when no connection was made (a refused address, a URL that is not allowed). */
  durationMs: number | null;
  responseSnippet: string | null;
  /** Why it failed when no status says it: a timeout, a network error, a refused address. */
  error: string | null;
}

/** The user agent of every delivery. */
export const WEBHOOK_USER_AGENT = 'blog-webhooks/1';

const refused = (error: string): SendOutcome => ({
  ok: false,
  responseCode: null,
  durationMs: null,
  responseSnippet: null,
  error,
});

class Timeout extends Error {}

/**
 * Sends `delivery` once, and says how it went. The host is resolved now (every address it has)
 * and refused when any address breaks the SSRF rule (see refusedAddress); the connection then
 * goes to the address that was checked, never to a second look-up that could answer otherwise.
 * Redirects are not followed (a 3xx is a failure with its status). `timeoutMs` covers the
 * look-up, the connection and the answer; of the answer's body the first
 * RESPONSE_SNIPPET_BYTES are read and the rest dropped, the connection closed. `stop` gives the
 * attempt up (the instance shuts down). Never throws.
 */
export async function sendDelivery(
  delivery: OutgoingDelivery,
  policy: SendPolicy,
  stop?: AbortSignal,
): Promise<SendOutcome> {
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return refused('The URL does not parse.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refused(`${url.protocol} is not a scheme webhooks use.`);
  }
  if (url.protocol === 'http:' && !policy.allowHttp) {
    return refused('http is refused (WEBHOOK_ALLOW_HTTP=true allows it).');
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const metadata = refusedHostName(hostname);
  if (metadata) return refused(`Refused: ${metadata}.`);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onStop = () => controller.abort();
  stop?.addEventListener('abort', onStop, { once: true });
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Timeout());
      controller.abort();
    }, policy.timeoutMs);
    controller.signal.addEventListener('abort', () => reject(new Error('Stopped.')), {
      once: true,
    });
  });
  try {
    const addresses = await Promise.race([resolve(hostname), deadline]);
    for (const { address } of addresses) {
      const reason = refusedAddress(address, policy.allowPrivateAddresses);
      if (!reason) continue;
      const named = isIP(hostname) ? address : `${hostname}, which resolves to ${address},`;
      return refused(`Refused: ${named} is ${reason}.`);
    }
    const answer = await Promise.race([
      post(url, hostname, addresses, delivery, controller.signal),
      deadline,
    ]);
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      ok,
      responseCode: answer.status,
      durationMs: elapsed(),
      responseSnippet: answer.snippet,
      error: ok ? null : answerError(answer.status, answer.location),
    };
  } catch (error) {
    if (error instanceof Timeout) {
      return { ...refused(`No answer within ${policy.timeoutMs} ms.`), durationMs: elapsed() };
    }
    return { ...refused(networkError(error)), durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
    controller.abort();
  }
}

function answerError(status: number, location: string | null): string {
  if (status >= 300 && status < 400) {
    return `Redirected (${status}${location ? ` to ${location.slice(0, 200)}` : ''}); redirects are not followed.`;
  }
  return `Answered ${status}.`;
}

function networkError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const text =
    code && message && !message.includes(code) ? `${code}: ${message}` : (message ?? code);
  return (text || 'The request failed.').slice(0, 300);
}

/** Every address of `hostname`: itself when it is an IP address. */
function resolve(hostname: string): Promise<LookupAddress[]> {
  const family = isIP(hostname);
  if (family) return Promise.resolve([{ address: hostname, family }]);
  return new Promise((resolved, rejected) => {
    dnsLookup(hostname, { all: true, order: 'verbatim' }, (error, addresses) => {
      if (error) rejected(error);
      else if (addresses.length === 0) rejected(new Error(`${hostname} has no address.`));
      else resolved(addresses);
    });
  });
}

/**
 * A `lookup` that answers the addresses already checked, whatever the connection asks: all of
 * them when it tries each in turn (Node's happy eyeballs), else the first.
 */
function pinned(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (error: null, all: LookupAddress[]) => void)(null, addresses);
    } else {
      callback(null, addresses[0].address, addresses[0].family);
    }
  };
}

interface Answer {
  status: number;
  location: string | null;
  snippet: string | null;
}

function post(
  url: URL,
  hostname: string,
  addresses: LookupAddress[],
  delivery: OutgoingDelivery,
  signal: AbortSignal,
): Promise<Answer> {
  const options: RequestOptions = {
    method: 'POST',
    host: hostname,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: {
      ...delivery.headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(delivery.body)),
      'user-agent': WEBHOOK_USER_AGENT,
    },
    lookup: pinned(addresses),
    agent: false,
    signal,
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolved, rejected) => {
    let request: ClientRequest;
    try {
      request = send(options, (response) => readSnippet(response).then(resolved, rejected));
    } catch (error) {
      rejected(error);
      return;
    }
    request.on('error', rejected);
    request.end(delivery.body);
  });
}

/** The status, and the body's first RESPONSE_SNIPPET_BYTES as text; the rest is never read. */
function readSnippet(response: IncomingMessage): Promise<Answer> {
  const status = response.statusCode ?? 0;
  const location = typeof response.headers.location === 'string' ? response.headers.location : null;
  return new Promise((resolved, rejected) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      response.off('data', onData);
      response.off('end', done);
      response.off('error', rejected);
      response.destroy();
      const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES);
      resolved({ status, location, snippet: bytes.length ? snippetText(bytes) : null });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_SNIPPET_BYTES) done();
    };
    response.on('data', onData);
    response.on('end', done);
    response.on('error', rejected);
  });
}

/** The bytes as UTF-8, a character cut at the end dropped, NUL (which PostgreSQL refuses) too. */
function snippetText(bytes: Buffer): string {
  return bytes
    .toString('utf8')
    .replace(/\uFFFD+$/, '')
    .replaceAll('\u0000', '');
}
