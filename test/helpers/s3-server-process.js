// s3rver (@20minutes/s3rver) in a process of its own, for test/helpers/s3-server.ts. Started with
// fork(this file, [JSON options], { execArgv: ['--openssl-legacy-provider'] }): s3rver makes its
// ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider. It
// reports { port } once it listens, and stops on { stop } or when its parent goes.
const { AsyncLocalStorage } = require('node:async_hooks');
const { createHash } = require('node:crypto');
const { Readable } = require('node:stream');

const S3rver = require('@20minutes/s3rver');

const { directory, bucket, withoutDeleteObjects } = JSON.parse(process.argv[2]);

const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});

// s3rver signs a bucket-level request's path without the trailing slash that the AWS SDK v3
// sends (`/bucket/?list-type=2`), a known gap that its own SDK v3 tests step around by changing
// the client. The app's client is left as it is: the signatures of those paths alone go
// unchecked, and every object-level request (PutObject, GetObject, DeleteObject) is checked.
const bucketLevel = new AsyncLocalStorage();
Object.defineProperty(server, 'allowMismatchedSignatures', {
  get: () => bucketLevel.getStore() === true,
});
server.middleware.unshift((ctx, next) => bucketLevel.run(/^\/[^/]+\/$/.test(ctx.path), next));

// DeleteObjects (`POST /bucket/?delete`) wants a Content-MD5 of its body, as AWS long did and
// MinIO and other S3-compatible servers still do: the AWS SDK v3 sends a CRC32 instead unless told.
server.middleware.unshift(async (ctx, next) => {
  if (ctx.method !== 'POST' || !('delete' in ctx.query)) return next();
  const chunks = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  const expected = createHash('md5').update(body).digest('base64');
  const given = ctx.get('content-md5');
  if (given !== expected) {
    ctx.status = 400;
    ctx.type = 'application/xml';
    ctx.body = given
      ? '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>BadDigest</Code><Message>The Content-MD5 you specified did not match what we received.</Message></Error>'
      : '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>MissingContentMD5</Code><Message>Missing required header for this request: Content-Md5.</Message></Error>';
    return undefined;
  }
  ctx.req = Readable.from([body]);
  return next();
});

// Some S3-compatible servers have no DeleteObjects at all.
if (withoutDeleteObjects) {
  server.middleware.unshift(async (ctx, next) => {
    if (ctx.method !== 'POST' || !('delete' in ctx.query)) return next();
    ctx.status = 501;
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NotImplemented</Code>' +
      '<Message>A header you provided implies functionality that is not implemented</Message></Error>';
  });
}

server.run().then(
  ({ port }) => process.send({ port }),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

process.on('message', (message) => {
  if (message.stop) server.close().finally(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
