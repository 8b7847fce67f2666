import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { InvalidEnvironmentError } from './env';

/** How long the start-up waits for HOST to resolve before refusing it. */
const LOOKUP_TIMEOUT_MS = 2000;

/** An IP address, or a host name made of letters, digits and hyphens between dots. */
export function isHostSyntax(host: string): boolean {
  if (isIP(host)) return true;
  return (
    host.length <= 253 &&
    host.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label))
  );
}

/** Whether listening on `host` keeps the service to this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || name.startsWith('::ffff:127.');
}

/** Refuses a HOST name that does not resolve, before anything tries to listen on it. */
export async function resolveHost(host: string): Promise<void> {
  if (isIP(host)) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('no answer'), { code: 'ETIMEOUT' })),
      LOOKUP_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([lookup(host), timeout]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new InvalidEnvironmentError('HOST', `"${host}" does not resolve to an address (${code})`);
  } finally {
    clearTimeout(timer);
  }
}
