import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import sharp from 'sharp';

import { testDatabase } from './helpers/databases';
import { MISSING_ID } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';
import { settle } from './helpers/ws-client';
import { IMAGE_STORAGE, ImageStorage } from '../src/blog/images/image-storage';

/** What `POST /images` answers (the fields these tests read). */
interface Uploaded {
  id: string;
  url: string;
  width: number;
  height: number;
  variants: { width: number; format: string; url: string }[];
}

interface Reply {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: Record<string, any> }[];
}

const COVER = 'coverImage { url alt caption image { id url width } } seo { imageUrl }';
const CREATE = `mutation ($input: CreatePostInput!) { createPost(input: $input) { id ${COVER} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdatePostInput!) {
  updatePost(id: $id, input: $input) { id ${COVER} }
}`;
const POST = `query ($id: ID!) { post(id: $id) { id ${COVER} author { avatar } } }`;
const BODY = `query ($id: ID!) { post(id: $id) { contentHtml } }`;
const PROFILE = `mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { id avatar } }`;
const USER = `query ($id: ID!) { user(id: $id) { avatar } }`;
const DELETE_IMAGE = `mutation ($id: ID!) { deleteImage(id: $id) }`;
const DELETE_ACCOUNT = `mutation ($password: String!) { deleteAccount(password: $password) }`;

const codeOf = (reply: Reply) => reply.errors?.[0]?.extensions?.code;
const fieldOf = (reply: Reply) => reply.errors?.[0]?.extensions?.field;

/** A JPEG of one colour, `width` × `height`. */
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();

/**
 * Uploaded images where they are used (issue 66): a post's cover by `imageId`, a profile's
 * `avatarImageId`, an image's URL in Markdown, a deletion refused while in use, and account
 * deletion taking the images and their files. Uploads go through `POST /images`, multipart with
 * a bearer token, as a client sends them; the files live in the local storage.
 */
describe('Images where they are used: covers, avatars, Markdown, deletion (e2e)', () => {
  let t: TestApp;
  let author: TestUser;
  let other: TestUser;
  let photo: Uploaded;

  async function upload(user: TestUser, width = 800, height = 600): Promise<Uploaded> {
    const response = await t.http
      .post('/images')
      .set('authorization', user.token)
      .attach('file', await jpeg(width, height), { filename: 'photo.jpg' });
    expect(response.status).toBe(201);
    return response.body as Uploaded;
  }

  /** The status of a GET of an image URL, on this app (whatever its host says). */
  const statusOf = async (url: string) => (await t.http.get(new URL(url).pathname)).status;

  const columns = async (table: 'posts' | 'users', id: string) =>
    (
      await t.dataSource.query(
        table === 'posts'
          ? `SELECT cover_url AS url, cover_image_id AS "imageId" FROM posts WHERE id = '${id}'`
          : `SELECT avatar AS url, avatar_image_id AS "imageId" FROM users WHERE id = '${id}'`,
      )
    )[0] as { url: string | null; imageId: string | null };

  const create = (input: Record<string, unknown>, user = author) =>
    t.gql(CREATE, { input }, user.token) as Promise<Reply>;

  beforeAll(async () => {
    t = await TestApp.start();
    author = await t.signUp({ name: 'Author' });
    other = await t.signUp({ name: 'Other' });
    photo = await upload(author);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('covers', () => {
    it('should make an uploaded image the cover, its URL absolute and served', async () => {
      const reply = await create({
        title: 'Covered',
        content: 'x',
        coverImage: { imageId: photo.id, alt: 'A lake', caption: 'At dawn' },
      });
      expect(reply.errors).toBeUndefined();
      const post = reply.data!.createPost;
      expect(post.coverImage).toEqual({
        url: photo.url,
        alt: 'A lake',
        caption: 'At dawn',
        image: { id: photo.id, url: photo.url, width: 800 },
      });
      expect(post.seo.imageUrl).toBe(photo.url);
      expect(new URL(photo.url).href).toBe(photo.url);
      expect(photo.url).toMatch(/^http:\/\/localhost:\d+\/images\/[0-9a-f-]{36}\/original\.jpg$/);
      expect(await statusOf(photo.url)).toBe(200);
      expect(await columns('posts', post.id)).toEqual({ url: null, imageId: photo.id });
      // Read back by another request, anonymously.
      const { post: read } = await t.data(POST, { id: post.id });
      expect(read.coverImage).toEqual(post.coverImage);
    });

    it('should accept the image id in upper case, storing it as the image has it', async () => {
      const { createPost } = (
        await create({
          title: 'Upper',
          content: 'x',
          coverImage: { imageId: photo.id.toUpperCase() },
        })
      ).data!;
      expect(createPost.coverImage.url).toBe(photo.url);
      expect((await columns('posts', createPost.id)).imageId).toBe(photo.id);
    });

    it('should switch a cover between a URL and an image, and remove both with null', async () => {
      const { createPost } = (
        await create({
          title: 'Switching',
          content: 'x',
          coverImage: { url: 'https://img.example.com/a.png' },
        })
      ).data!;
      const update = async (coverImage: unknown) =>
        ((await t.gql(UPDATE, { id: createPost.id, input: { coverImage } }, author.token)) as Reply)
          .data!.updatePost;

      const toImage = await update({ imageId: photo.id, alt: 'Now uploaded' });
      expect(toImage.coverImage).toMatchObject({
        url: photo.url,
        alt: 'Now uploaded',
        caption: null,
      });
      expect(await columns('posts', createPost.id)).toEqual({ url: null, imageId: photo.id });

      const toUrl = await update({ url: 'https://img.example.com/b.png' });
      expect(toUrl.coverImage).toEqual({
        url: 'https://img.example.com/b.png',
        alt: null,
        caption: null,
        image: null,
      });
      expect(await columns('posts', createPost.id)).toEqual({
        url: 'https://img.example.com/b.png',
        imageId: null,
      });

      await update({ imageId: photo.id });
      const removed = await update(null);
      expect(removed.coverImage).toBeNull();
      expect(removed.seo.imageUrl).toBeNull();
      expect(await columns('posts', createPost.id)).toEqual({ url: null, imageId: null });
    });

    it('should refuse a cover with neither or both of imageId and url, writing nothing', async () => {
      const covers = [
        {},
        { alt: 'Only alt' },
        { imageId: photo.id, url: 'https://img.example.com/c.png' },
        { imageId: null, url: null },
      ];
      for (const coverImage of covers) {
        const reply = await create({ title: 'Not one cover', content: 'x', coverImage });
        expect(codeOf(reply)).toBe('BAD_USER_INPUT');
        expect(fieldOf(reply)).toBe('input.coverImage');
      }
      const { createPost } = (await create({ title: 'Kept', content: 'x' })).data!;
      const both = (await t.gql(
        UPDATE,
        {
          id: createPost.id,
          input: { coverImage: { imageId: photo.id, url: 'https://a.example/b.png' } },
        },
        author.token,
      )) as Reply;
      expect(codeOf(both)).toBe('BAD_USER_INPUT');
      expect(fieldOf(both)).toBe('input.coverImage');
      const count = await t.dataSource.query(
        `SELECT COUNT(*) AS n FROM posts WHERE title = 'Not one cover' OR cover_image_id IS NOT NULL AND id = '${createPost.id}'`,
      );
      expect(Number(count[0].n)).toBe(0);
    });

    it("should refuse someone else's image (FORBIDDEN) and a missing one (NOT_FOUND)", async () => {
      const theirs = await upload(other, 400, 300);
      expect(
        codeOf(
          await create({ title: 'Not mine', content: 'x', coverImage: { imageId: theirs.id } }),
        ),
      ).toBe('FORBIDDEN');
      for (const imageId of [MISSING_ID, 'not-an-id']) {
        expect(
          codeOf(await create({ title: 'Not mine', content: 'x', coverImage: { imageId } })),
        ).toBe('NOT_FOUND');
      }
      const { createPost } = (await create({ title: 'Mine', content: 'x' })).data!;
      const update = (await t.gql(
        UPDATE,
        { id: createPost.id, input: { coverImage: { imageId: theirs.id } } },
        author.token,
      )) as Reply;
      expect(codeOf(update)).toBe('FORBIDDEN');
      const titles = await t.dataSource.query(`SELECT id FROM posts WHERE title = 'Not mine'`);
      expect(titles).toEqual([]);
      expect(await columns('posts', createPost.id)).toEqual({ url: null, imageId: null });
    });

    it("should take, from an admin editing a post, only an image of the post's author", async () => {
      const admin = await t.signUp({ name: 'Admin' });
      await t.makeAdmin(admin.user.id);
      const adminsImage = await upload(admin, 400, 300);
      const { createPost } = (await create({ title: "Author's", content: 'x' })).data!;
      const edit = (imageId: string) =>
        t.gql(
          UPDATE,
          { id: createPost.id, input: { coverImage: { imageId } } },
          admin.token,
        ) as Promise<Reply>;
      expect(codeOf(await edit(adminsImage.id))).toBe('FORBIDDEN');
      const reply = await edit(photo.id);
      expect(reply.data!.updatePost.coverImage.url).toBe(photo.url);
    });

    it('should read the covers and avatars of a list of posts with one statement of images', async () => {
      const writer = await t.signUp({ name: 'Writer' });
      const images = [await upload(writer, 400, 300), await upload(writer, 500, 300)];
      for (const [n, image] of images.entries()) {
        await create(
          { title: `Listed ${n}`, content: 'x', coverImage: { imageId: image.id } },
          writer,
        );
      }
      await t.data(PROFILE, { input: { avatarImageId: images[0]!.id } }, writer.token);
      const query = `query ($id: ID!) { user(id: $id) { posts { coverImage { url } author { avatar } } } }`;
      const { result, statements } = await t.statements.during(() =>
        t.data(query, { id: writer.user.id }),
      );
      expect(result.user.posts.map((post: any) => post.coverImage.url).sort()).toEqual(
        images.map((image) => image.url).sort(),
      );
      expect(statements.filter((sql) => /\bFROM images\b/.test(sql))).toHaveLength(1);
    });
  });

  describe('avatars', () => {
    it("should make an uploaded image the avatar: its 320-wide copy's URL, read by anyone", async () => {
      const user = await t.signUp();
      const image = await upload(user, 1000, 500);
      const { updateProfile } = await t.data(
        PROFILE,
        { input: { avatarImageId: image.id } },
        user.token,
      );
      const small = image.variants.find((v) => v.width === 320 && v.format === 'jpeg');
      expect(updateProfile.avatar).toBe(small!.url);
      expect(updateProfile.avatar).toMatch(/\/320\.jpg$/);
      expect((await t.data(USER, { id: user.user.id })).user.avatar).toBe(small!.url);
      const served = await t.http.get(new URL(small!.url).pathname).buffer(true);
      expect(served.status).toBe(200);
      expect((await sharp(served.body as Buffer).metadata()).width).toBe(320);
      expect(await columns('users', user.user.id)).toEqual({ url: null, imageId: image.id });
    });

    it('should answer the full-size file of an image narrower than 320', async () => {
      const user = await t.signUp();
      const image = await upload(user, 200, 100);
      const { updateProfile } = await t.data(
        PROFILE,
        { input: { avatarImageId: image.id } },
        user.token,
      );
      expect(updateProfile.avatar).toBe(image.url);
    });

    it('should replace an image with a URL and back, and remove either with null', async () => {
      const user = await t.signUp();
      const image = await upload(user, 400, 400);
      const set = async (input: Record<string, unknown>) =>
        (await t.data(PROFILE, { input }, user.token)).updateProfile.avatar;
      await set({ avatarImageId: image.id });
      expect(await set({ avatar: 'https://example.com/me.png' })).toBe(
        'https://example.com/me.png',
      );
      expect(await columns('users', user.user.id)).toEqual({
        url: 'https://example.com/me.png',
        imageId: null,
      });
      expect(await set({ avatarImageId: image.id })).toMatch(/\/320\.jpg$/);
      expect(await columns('users', user.user.id)).toEqual({ url: null, imageId: image.id });
      expect(await set({ name: 'Renamed' })).toMatch(/\/320\.jpg$/);
      expect(await set({ avatarImageId: null })).toBeNull();
      await set({ avatarImageId: image.id });
      expect(await set({ avatar: null })).toBeNull();
      expect(await columns('users', user.user.id)).toEqual({ url: null, imageId: null });
    });

    it("should refuse both fields at once, someone else's image and a missing one", async () => {
      const user = await t.signUp();
      await t.data(PROFILE, { input: { avatar: 'https://example.com/kept.png' } }, user.token);
      const mine = await upload(user, 400, 400);
      const refused = async (input: Record<string, unknown>) =>
        (await t.gql(PROFILE, { input }, user.token)) as Reply;
      const both = await refused({ avatar: 'https://example.com/x.png', avatarImageId: mine.id });
      expect(codeOf(both)).toBe('BAD_USER_INPUT');
      expect(fieldOf(both)).toBe('input.avatarImageId');
      expect(codeOf(await refused({ avatarImageId: photo.id }))).toBe('FORBIDDEN');
      expect(codeOf(await refused({ avatarImageId: MISSING_ID }))).toBe('NOT_FOUND');
      expect(codeOf(await refused({ name: 'Changed', avatarImageId: photo.id }))).toBe('FORBIDDEN');
      expect((await t.data(`{ me { name avatar } }`, {}, user.token)).me).toMatchObject({
        avatar: 'https://example.com/kept.png',
      });
      expect((await t.data(`{ me { name } }`, {}, user.token)).me.name).not.toBe('Changed');
    });
  });

  describe('Markdown', () => {
    it("should keep an uploaded image's absolute URL in contentHtml", async () => {
      const variant = photo.variants.find((v) => v.width === 640 && v.format === 'webp')!;
      const content = `A photo:\n\n![A lake](${photo.url} "Dawn")\n\n<img src="${variant.url}" alt="Small">`;
      const { createPost } = (await create({ title: 'With pictures', content })).data!;
      const { post } = await t.data(BODY, { id: createPost.id });
      expect(post.contentHtml).toContain(`<img src="${photo.url}" alt="A lake" title="Dawn" />`);
      expect(post.contentHtml).toContain(`<img src="${variant.url}" alt="Small" />`);
    });
  });

  describe('deletion', () => {
    it('should refuse to delete an image in use, listing the posts and the avatar, until unused', async () => {
      const user = await t.signUp({ handle: 'in_use_owner' });
      const image = await upload(user, 400, 300);
      const { createPost } = (
        await create({ title: 'Uses it', content: 'x', coverImage: { imageId: image.id } }, user)
      ).data!;
      await t.data(PROFILE, { input: { avatarImageId: image.id } }, user.token);

      const refused = (await t.gql(DELETE_IMAGE, { id: image.id }, user.token)) as Reply;
      expect(codeOf(refused)).toBe('CONFLICT');
      expect(refused.errors![0]!.message).toContain('Uses it');
      expect(refused.errors![0]!.extensions!.usedBy).toEqual({
        posts: [{ id: createPost.id, title: 'Uses it' }],
        avatars: [{ id: user.user.id, handle: 'in_use_owner' }],
      });
      expect(await statusOf(image.url)).toBe(200);

      await t.data(UPDATE, { id: createPost.id, input: { coverImage: null } }, user.token);
      expect(codeOf((await t.gql(DELETE_IMAGE, { id: image.id }, user.token)) as Reply)).toBe(
        'CONFLICT',
      );
      await t.data(PROFILE, { input: { avatar: null } }, user.token);
      expect((await t.data(DELETE_IMAGE, { id: image.id }, user.token)).deleteImage).toBe(image.id);
      expect(await statusOf(image.url)).toBe(404);
    });

    if (testDatabase() === 'postgres') {
      /** Whether `request` ends on its own, or waits on a lock that another transaction holds. */
      const endsOrWaits = async (request: Promise<unknown>): Promise<string> => {
        let ended = false;
        void request.then(() => (ended = true));
        for (let poll = 0; poll < 250; poll++) {
          if (ended) return 'ends';
          const [{ waiting }] = await t.dataSource.query(
            "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          if (waiting > 0) return 'waits';
          await settle(20);
        }
        return 'neither';
      };

      it.each([
        [
          'a cover',
          async (user: TestUser, imageId: string) => {
            const { createPost } = (await create({ title: 'Racing', content: 'x' }, user)).data!;
            const input = { coverImage: { imageId } };
            return {
              request: t.gql(UPDATE, { id: createPost.id, input }, user.token) as Promise<Reply>,
              stored: () => columns('posts', createPost.id),
            };
          },
        ],
        [
          'an avatar',
          async (user: TestUser, imageId: string) => ({
            request: t.gql(
              PROFILE,
              { input: { avatarImageId: imageId } },
              user.token,
            ) as Promise<Reply>,
            stored: () => columns('users', user.user.id),
          }),
        ],
      ])(
        'should make %s wait for a deletion of its image under way, then refuse it',
        async (_what, use) => {
          const user = await t.signUp();
          const image = await upload(user, 400, 300);
          // A deletion of the image that found no use, and has not committed yet.
          const deletion = t.dataSource.createQueryRunner();
          await deletion.connect();
          try {
            await deletion.startTransaction();
            await deletion.query('DELETE FROM images WHERE id = $1', [image.id]);
            const { request, stored } = await use(user, image.id);
            expect(await endsOrWaits(request)).toBe('waits');
            await deletion.commitTransaction();
            expect(codeOf(await request)).toBe('NOT_FOUND');
            expect(await stored()).toEqual({ url: null, imageId: null });
          } finally {
            if (deletion.isTransactionActive) await deletion.rollbackTransaction();
            await deletion.release();
          }
        },
      );
    }

    it("should delete an account's images, rows then files, with its posts, and nobody else's", async () => {
      const storage = t.app.get<ImageStorage>(IMAGE_STORAGE);
      const filesOf = async (id: string) => {
        const keys: string[] = [];
        for await (const file of storage.list(`images/${id}/`)) keys.push(file.key);
        return keys;
      };
      const leaving = await t.signUp();
      const [cover, avatar, unused] = [
        await upload(leaving, 700, 400),
        await upload(leaving, 400, 400),
        await upload(leaving, 300, 200),
      ];
      const { createPost } = (
        await create({ title: 'Leaving', content: 'x', coverImage: { imageId: cover.id } }, leaving)
      ).data!;
      await t.data(PROFILE, { input: { avatarImageId: avatar.id } }, leaving.token);
      const kept = await upload(other, 400, 300);
      for (const image of [cover, avatar, unused]) expect(await filesOf(image.id)).not.toEqual([]);

      const reply = await t.data(DELETE_ACCOUNT, { password: leaving.password }, leaving.token);
      expect(reply.deleteAccount).toBe(leaving.user.id);

      const rows = await t.dataSource.query(
        `SELECT id FROM images WHERE owner_id = '${leaving.user.id}'`,
      );
      expect(rows).toEqual([]);
      expect(
        await t.dataSource.query(`SELECT id FROM posts WHERE id = '${createPost.id}'`),
      ).toEqual([]);
      for (const image of [cover, avatar, unused]) {
        expect(await filesOf(image.id)).toEqual([]);
        expect(await statusOf(image.url)).toBe(404);
      }
      expect(await filesOf(kept.id)).not.toEqual([]);
      expect(await statusOf(kept.url)).toBe(200);
      expect(
        (await t.data(`query ($id: ID!) { image(id: $id) { id } }`, { id: kept.id })).image,
      ).toEqual({
        id: kept.id,
      });
    });
  });
});

/**
 * A cover's and an avatar's URLs are made when they are read, from the storage in use: a second
 * instance on the same database and files, with another public base URL, answers its own.
 */
describe('Image URLs follow the public base URL (e2e)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'blog-image-uses-'));
  let first: TestApp;
  let second: TestApp | undefined;

  beforeAll(async () => {
    first = await TestApp.start({
      dataDir,
      env: { IMAGE_PUBLIC_BASE_URL: 'https://cdn-one.example.com/images' },
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('should answer covers and avatars on the base URL of the instance that reads them', async () => {
    const user = await first.signUp();
    const response = await first.http
      .post('/images')
      .set('authorization', user.token)
      .attach('file', await jpeg(640, 480), { filename: 'a.jpg' });
    expect(response.status).toBe(201);
    const image = response.body as Uploaded;
    expect(image.url).toBe(`https://cdn-one.example.com/images/${image.id}/original.jpg`);
    const { createPost } = await first.data(
      CREATE,
      { input: { title: 'Moved', content: 'x', coverImage: { imageId: image.id } } },
      user.token,
    );
    await first.data(PROFILE, { input: { avatarImageId: image.id } }, user.token);

    second = await TestApp.start({
      dataDir,
      shareDatabaseOf: first,
      env: { IMAGE_PUBLIC_BASE_URL: 'https://cdn-two.example.com/pictures' },
    });
    const { post } = await second.data(POST, { id: createPost.id });
    expect(post.coverImage.url).toBe(
      `https://cdn-two.example.com/pictures/${image.id}/original.jpg`,
    );
    expect(post.seo.imageUrl).toBe(post.coverImage.url);
    expect(post.author.avatar).toBe(`https://cdn-two.example.com/pictures/${image.id}/320.jpg`);
  });
});
