import { compare, hash } from '@node-rs/bcrypt';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';

/** bcrypt on the libuv thread pool; a dummy hash makes "unknown user" cost the same as "wrong password". */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: ResolvedConfig) {}

  hash(password: string): Promise<string> {
    return hash(password, this.config.bcryptCost);
  }

  verify(password: string, hashed: string): Promise<boolean> {
    return compare(password, hashed).catch(() => false);
  }

  /** Spends the time of a real comparison (the same verify(), on a hash of the same cost), then fails. */
  async verifyNothing(password: string): Promise<false> {
    this.dummy ??= this.hash('aide-dummy-password');
    await this.verify(password, await this.dummy);
    return false;
  }
}
