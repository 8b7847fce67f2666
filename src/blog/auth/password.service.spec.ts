import { Test } from '@nestjs/testing';

import { PasswordService } from './password.service';

describe('PasswordService', () => {
  let passwords: PasswordService;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ providers: [PasswordService] }).compile();
    passwords = moduleRef.get(PasswordService);
  });

  it('should hash with argon2id at the OWASP minimum, salted afresh each time', async () => {
    const [one, two] = [await passwords.hash('secret'), await passwords.hash('secret')];
    const [, algorithm, , parameters] = one.split('$');
    expect(algorithm).toBe('argon2id');
    expect(parameters.split(',').sort()).toEqual(['m=19456', 'p=1', 't=2']);
    expect(one).not.toBe(two);
    expect(one).not.toContain('secret');
  });

  it('should accept the right password and refuse a wrong one', async () => {
    const hash = await passwords.hash('secret');
    expect(await passwords.verify(hash, 'secret')).toBe(true);
    expect(await passwords.verify(hash, 'Secret')).toBe(false);
  });

  it('should refuse, not throw, when the stored hash is not an argon2 hash', async () => {
    expect(await passwords.verify('not a hash', 'secret')).toBe(false);
  });

  it('should spend a real check on no account, and always refuse', async () => {
    const verify = jest.spyOn(passwords, 'verify');
    expect(await passwords.verifyNothing('not a real password')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0][0]).toMatch(/^\$argon2id\$/);
  });
});
