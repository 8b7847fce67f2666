import { User } from '../src/blog';
import { UPDATE_PROFILE } from './helpers/documents';
import { TestApp } from './helpers/test-app';
import { NormaliseAvatars1765004000000 } from '../src/blog/migrations/1765004000000-normalise-avatars';

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { token user { id avatar } } }`;

describe('Avatar URLs (e2e)', () => {
  let t: TestApp;
  let count = 0;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const emailOf = (n: number) => `avatar-${process.pid}-${n}@example.com`;
  const signUp = (avatar: string) =>
    t.gql(SIGN_UP, {
      input: { name: 'Avatar', email: emailOf(++count), password: 'long enough', avatar },
    });
  const stored = async (id: string) =>
    (await t.dataSource.getRepository(User).findOneByOrFail({ id })).avatar;

  it('should store the avatar of a sign-up normalised, as it answers it', async () => {
    const response = await signUp(' HTTPS://Avatars.Example.COM:443/me/a b"c\'d.png ');
    const user = response.data!.signUp.user;
    expect(user.avatar).toBe('https://avatars.example.com/me/a%20b%22c%27d.png');
    expect(await stored(user.id)).toBe(user.avatar);
  });

  it('should store the avatar of a profile change normalised, an IDN in punycode', async () => {
    const owner = await t.signUp();
    const { updateProfile } = await t.data(
      UPDATE_PROFILE,
      { input: { avatar: 'https://例え.jp/<me>.png' } },
      owner.token,
    );
    expect(updateProfile.avatar).toBe('https://xn--r8jz45g.jp/%3Cme%3E.png');
    expect(await stored(owner.user.id)).toBe(updateProfile.avatar);
  });

  it.each([
    ['credentials', 'https://user:secret@example.com/a.png', /user name or password/],
    ['a user name', 'https://admin@example.com/a.png', /user name or password/],
    ['localhost', 'http://localhost:3000/a.png', /public host/],
    ['a loopback address written as a number', 'http://2130706433/a.png', /public host/],
    ['a private address', 'http://192.168.0.10/a.png', /public host/],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data', /public host/],
    ['IPv6 loopback', 'http://[::1]/a.png', /public host/],
    ['a name of one label', 'http://intranet/a.png', /public host/],
    ['a script', 'javascript:alert(1)', /http\(s\) URL/],
    ['a tab inside', 'https://exa\tmple.com/a.png', /control characters/],
  ])(
    'should refuse %s as BAD_USER_INPUT on input.avatar, writing nothing',
    async (_, avatar, why) => {
      const signedUp = await signUp(avatar);
      expect(signedUp.errors?.[0].extensions).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'input.avatar',
      });
      expect(signedUp.errors?.[0].message).toMatch(why);
      expect(signedUp.data ?? null).toBeNull();
      expect(await t.dataSource.getRepository(User).countBy({ email: emailOf(count) })).toBe(0);

      const owner = await t.signUp();
      const changed = await t.gql(UPDATE_PROFILE, { input: { avatar } }, owner.token);
      expect(changed.errors?.[0].extensions).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'input.avatar',
      });
      expect(await stored(owner.user.id)).toBeNull();
    },
  );
});

describe('The migration that normalises stored avatars (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('should store each avatar as the rule reads it, and remove those it refuses', async () => {
    const avatars = {
      plain: 'https://avatars.example.com/me.png',
      loose: ' HTTPS://Avatars.Example.COM:443/me/a b.png ',
      credentials: 'https://user:secret@avatars.example.com/me.png',
      internal: 'http://169.254.169.254/latest/meta-data',
      notUrl: 'javascript:alert(1)',
    };
    const ids: Record<string, string> = {};
    const repository = t.dataSource.getRepository(User);
    for (const [name, avatar] of Object.entries(avatars)) {
      const { id } = (await t.signUp({ name: `Avatar ${name}` })).user;
      // Written as an earlier version stored it: as typed.
      await repository.update({ id }, { avatar });
      ids[name] = id;
    }
    const runner = t.dataSource.createQueryRunner();
    try {
      await new NormaliseAvatars1765004000000().up(runner);
    } finally {
      await runner.release();
    }
    const stored = async (name: string) =>
      (await repository.findOneByOrFail({ id: ids[name] })).avatar;
    expect(await stored('plain')).toBe(avatars.plain);
    expect(await stored('loose')).toBe('https://avatars.example.com/me/a%20b.png');
    expect(await stored('credentials')).toBeNull();
    expect(await stored('internal')).toBeNull();
    expect(await stored('notUrl')).toBeNull();
  });
});
