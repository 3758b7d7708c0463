import type { ListQuery, Page } from '@aide/schemas';
import type { AuthUser } from '../auth/current-user.js';

/** What the generic CRUD routes call. Each entity's service implements it with its own rules. */
export interface CrudService<TRead, TCreate, TUpdate> {
  list(query: ListQuery, user: AuthUser): Promise<Page<TRead>>;
  get(id: string, user: AuthUser): Promise<TRead>;
  create(input: TCreate, user: AuthUser): Promise<TRead>;
  update?(id: string, input: TUpdate, ifMatch: number | undefined, user: AuthUser): Promise<TRead>;
  remove?(id: string, user: AuthUser): Promise<TRead>;
  restore?(id: string, user: AuthUser): Promise<TRead>;
  createMany?(items: TCreate[], user: AuthUser): Promise<TRead[]>;
}
