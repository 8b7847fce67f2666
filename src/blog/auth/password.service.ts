import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** OWASP's minimum for argon2id: 19 MiB of memory, 2 passes, 1 lane. */
const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

@Injectable()
export class PasswordService {
  private dummyHash?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, ARGON2_OPTIONS);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends the time of a real check, so that an unknown email cannot be told apart by timing. */
  async verifyNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash('not a real password');
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
