import { createHmac, timingSafeEqual } from 'node:crypto';

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

/**
 * The user id (`sub`) of a valid, unexpired HS256 token `{ sub, exp }` signed with `secret`,
 * or null: what the baseline servers check on each signed-in request.
 */
export function verifyToken(secret, token) {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return null;
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    const { sub, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (alg !== 'HS256' || typeof sub !== 'string' || typeof exp !== 'number') return null;
    return exp * 1000 > Date.now() ? sub : null;
  } catch {
    return null;
  }
}
