import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';
import sharp from 'sharp';

import { within } from './helpers/built-service';
import { createPostgresDatabase } from './helpers/databases';
import { buildIfNeeded, SpawnedService } from './helpers/spawned-service';

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { token user { id } } }`;
/** The files of a 1000-wide JPEG: the original, and 320 and 640 in WebP and JPEG. */
const FILES = ['320.jpg', '320.webp', '640.jpg', '640.webp', 'original.jpg'];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 200 ms until it answers true, for at most `ms`. */
async function until(check: () => Promise<boolean> | boolean, ms: number, what: string) {
  await within(
    (async () => {
      while (!(await check())) await pause(200);
    })(),
    ms,
    what,
  );
}

/**
 * The built service, killed with SIGKILL while an upload has stored its files but not yet written
 * its row, then started again: the files go with the upload's lease, and nothing is left. The
 * upload is held there by a lock on its owner's row, which the transaction that writes the row
 * takes first (PostgreSQL only: SQLite has no row locks).
 */
describe('An upload killed part-way (e2e)', () => {
  let database: { url: string; drop: () => Promise<void> };
  let service: SpawnedService | undefined;
  const clients: Client[] = [];

  beforeAll(buildIfNeeded, 240_000);
  beforeEach(async () => {
    database = await createPostgresDatabase();
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
    for (const client of clients.splice(0)) await client.end().catch(() => undefined);
    await database.drop();
  });

  const connect = async (): Promise<Client> => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    clients.push(client);
    return client;
  };

  it('should leave neither files nor an upload once the service started again has swept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blog-killed-upload-'));
    const env = { NODE_ENV: 'development', PORT: '0', DATABASE_URL: database.url };
    service = new SpawnedService(env, dir);
    const base = `http://127.0.0.1:${await service.port()}`;
    const signedUp = (await (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: SIGN_UP,
          variables: {
            input: { email: 'kim@example.com', name: 'Kim', password: 'a long passphrase 7' },
          },
        }),
      })
    ).json()) as { data: { signUp: { token: string; user: { id: string } } } };
    const { token, user } = signedUp.data.signUp;

    const lock = await connect();
    await lock.query('BEGIN');
    await lock.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [user.id]);
    const photo = await sharp({
      create: {
        width: 1000,
        height: 750,
        channels: 3,
        background: '#345',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    const answered = fetch(`${base}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }).then(
      (response) => response.status,
      () => 'cut off',
    );

    const reader = await connect();
    const uploads = async () =>
      (await reader.query('SELECT id FROM image_uploads')).rows.map(
        (row: { id: string }) => row.id,
      );
    const images = join(dir, 'data', 'images');
    const filesOf = (id: string) =>
      existsSync(join(images, id)) ? readdirSync(join(images, id)).sort() : [];
    let id = '';
    await until(
      async () => {
        [id = ''] = await uploads();
        return id !== '' && filesOf(id).join() === FILES.join();
      },
      30_000,
      'the upload to store its files',
    );
    await service.kill();
    await lock.query('ROLLBACK');
    expect(await answered).toBe('cut off');
    expect(filesOf(id)).toEqual(FILES);
    expect((await reader.query('SELECT id FROM images')).rows).toEqual([]);

    service = new SpawnedService(env, dir);
    await service.port();
    await until(
      async () => !existsSync(join(images, id)) && (await uploads()).length === 0,
      40_000,
      'the sweep to remove the files of the killed upload',
    );
    expect(service.log).toContain('Removed 5 files of abandoned image uploads.');
    expect(readdirSync(images)).toEqual([]);
  }, 120_000);
});
