import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { UserEntity } from './user.entity.js';
import { UsersRepository } from './users.repository.js';

/** What other modules may ask about users (ADR 0026); exported by `UsersModule`. */
@Injectable()
export class UsersLookup extends ParentLookup<UserEntity> {
  constructor(private readonly users: UsersRepository) {
    super(users.crud);
  }

  /** The user with this e-mail address (case-insensitive), active or not. */
  findByEmail(email: string): Promise<UserEntity | undefined> {
    return this.users.findByEmail(email);
  }

  /** The e-mail address of each given user, for "who did it" in read shapes; unknown ids are absent. */
  emailsOf(ids: readonly string[]): Promise<Map<string, string>> {
    return this.users.emailsOf(ids);
  }

  /** Revokes the user's refresh tokens and invalidates its access tokens (logout everywhere, reuse). */
  endSessions(userId: string, m: EntityManager): Promise<void> {
    return this.users.endSessions(userId, m);
  }
}
