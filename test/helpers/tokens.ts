import { createHmac } from 'node:crypto';

const base64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** Builds a JWT by hand, so that tests can forge every kind of bad token. */
export function forgeToken(
  payload: Record<string, unknown>,
  { secret, alg = 'HS256' }: { secret?: string; alg?: string } = {},
): string {
  const head = `${base64url({ alg, typ: 'JWT' })}.${base64url(payload)}`;
  if (!secret) return `${head}.`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

export const nowInSeconds = () => Math.floor(Date.now() / 1000);
