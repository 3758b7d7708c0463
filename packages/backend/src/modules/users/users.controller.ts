import {
  type CreateUser,
  type ListQuery,
  type Page,
  UpdateMeSchema,
  type UpdateMe,
  type UpdateUser,
  type User,
  userResource as resource,
} from '@aide/schemas';
import { Body, Controller, Get, Headers, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { type AuthUser, CurrentUser, SuperuserOnly } from '../../common/auth/current-user.js';
import { body, listQuery, noQuery, parseIfMatch, UuidPipe } from '../../common/validation/zod.pipe.js';
import { UsersService } from './users.service.js';

/** Users are managed by superusers; `/me` is every user's own. There is no delete: deactivate instead. */
@Controller('api/v1/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  me(@Query(noQuery) _query: object, @CurrentUser() user: AuthUser): Promise<User> {
    return this.users.get(user.id);
  }

  @Put('me')
  putMe(
    @Body(body(UpdateMeSchema)) input: UpdateMe,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentUser() user: AuthUser,
  ): Promise<User> {
    return this.users.updateMe(input, parseIfMatch(ifMatch), user);
  }

  @Patch('me')
  patchMe(
    @Body(body(UpdateMeSchema)) input: UpdateMe,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentUser() user: AuthUser,
  ): Promise<User> {
    return this.users.updateMe(input, parseIfMatch(ifMatch), user);
  }

  @Get()
  @SuperuserOnly()
  list(@Query(listQuery(resource.list)) query: ListQuery): Promise<Page<User>> {
    return this.users.list(query);
  }

  @Post()
  @SuperuserOnly()
  create(@Body(body(resource.create)) input: CreateUser, @CurrentUser() user: AuthUser): Promise<User> {
    return this.users.create(input, user);
  }

  @Get(':id')
  @SuperuserOnly()
  get(@Param('id', UuidPipe) id: string, @Query(noQuery) _query: object): Promise<User> {
    return this.users.get(id);
  }

  @Put(':id')
  @SuperuserOnly()
  put(
    @Param('id', UuidPipe) id: string,
    @Body(body(resource.update)) input: UpdateUser,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentUser() user: AuthUser,
  ): Promise<User> {
    return this.users.update(id, input, parseIfMatch(ifMatch), user);
  }

  @Patch(':id')
  @SuperuserOnly()
  patch(
    @Param('id', UuidPipe) id: string,
    @Body(body(resource.update)) input: UpdateUser,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentUser() user: AuthUser,
  ): Promise<User> {
    return this.users.update(id, input, parseIfMatch(ifMatch), user);
  }
}
