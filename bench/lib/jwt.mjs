import { createHmac } from 'node:crypto';

const base64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * An HS256 JWT for `userId`, as the service issues them (`{ sub, exp }`), valid for `ttlSeconds`.
 * Extra claims are added as given (PostGraphile, for one, checks `aud`).
 */
export function mintToken(secret, userId, { ttlSeconds = 24 * 3600, claims = {} } = {}) {
  const header = base64url({ alg: 'HS256', typ: 'JWT' });
  const payload = base64url({
    sub: userId,
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + ttlSeconds,
    ...claims,
  });
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
