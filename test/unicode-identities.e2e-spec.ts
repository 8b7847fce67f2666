import { User } from '../src/blog';
import { UPDATE_PROFILE } from './helpers/documents';
import { TestApp, TestUser } from './helpers/test-app';

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { user { id email handle } } }`;
const LOG_IN = `mutation ($input: LogInInput!) { logIn(input: $input) { user { id } } }`;
const PASSWORD = 'correct horse battery';

/** The full-width (Ｕ+FF01...) form of an ASCII string, as some keyboards and IMEs type it. */
const fullWidth = (ascii: string) =>
  ascii.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

/** Emails and handles are compared as NFKC, lower-case and trimmed, wherever they come in. */
describe('Unicode forms of emails and handles (e2e)', () => {
  let t: TestApp;
  let ada: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    ada = await t.signUp({ name: 'Ada', email: 'ada@example.com', handle: 'ada_l' });
  });
  afterAll(() => t.close());

  const signUp = (email: string, handle?: string) =>
    t.gql(SIGN_UP, { input: { name: 'Someone', email, password: PASSWORD, handle } });

  it('should answer CONFLICT for the full-width form of a registered email, and add no user', async () => {
    const before = await t.dataSource.getRepository(User).count();
    const response = await signUp(`\u3000${fullWidth('ADA@example.com')}`);
    expect(response.errors?.[0].extensions).toEqual({ code: 'CONFLICT', field: 'email' });
    expect(await t.dataSource.getRepository(User).count()).toBe(before);
  });

  it('should store a full-width email and handle in their plain form', async () => {
    const response = await signUp(fullWidth('Grace@Example.com'), fullWidth('Grace_H'));
    expect(response.errors).toBeUndefined();
    expect(response.data?.signUp.user).toMatchObject({
      email: 'grace@example.com',
      handle: 'grace_h',
    });
  });

  it('should log in with the full-width form of an existing email', async () => {
    const { logIn } = await t.data(LOG_IN, {
      input: { email: fullWidth('ADA@EXAMPLE.COM'), password: ada.password },
    });
    expect(logIn.user).toEqual({ id: ada.user.id });
  });

  it('should answer CONFLICT for the full-width form of a taken handle at sign-up', async () => {
    const response = await signUp('ada.other@example.com', fullWidth('ADA_L'));
    expect(response.errors?.[0].extensions).toEqual({ code: 'CONFLICT', field: 'handle' });
  });

  it('should answer CONFLICT for the full-width form of a taken handle in updateProfile', async () => {
    const other = await t.signUp();
    const response = await t.gql(
      UPDATE_PROFILE,
      { input: { handle: fullWidth('Ada_L') } },
      other.token,
    );
    expect(response.errors?.[0].extensions).toEqual({ code: 'CONFLICT', field: 'handle' });
  });

  it('should store a full-width handle given to updateProfile in its plain form', async () => {
    const other = await t.signUp();
    const { updateProfile } = await t.data(
      UPDATE_PROFILE,
      { input: { handle: ` ${fullWidth('New_Handle')} ` } },
      other.token,
    );
    expect(updateProfile.handle).toBe('new_handle');
  });

  it('should find a user by the full-width form of their handle', async () => {
    const { userByHandle } = await t.data(
      `query ($h: String!) { userByHandle(handle: $h) { id } }`,
      {
        h: fullWidth('ADA_L'),
      },
    );
    expect(userByHandle).toEqual({ id: ada.user.id });
  });
});
