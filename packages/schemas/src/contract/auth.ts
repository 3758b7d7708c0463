import { LoginFormSchema, RefreshTokenRequestSchema, TokenPairSchema } from '../entities/auth.js';
import { UpdateMeSchema, userResource } from '../entities/user.js';
import { crudRoutes } from './crud.js';
import { defineRoute } from './route.js';

const tag = 'Auth';

/** Login, token rotation and logout (OAuth2 password grant; ADR 0004). */
export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/api/v1/login',
    body: LoginFormSchema,
    bodyType: 'form',
    responses: { 200: TokenPairSchema },
    errors: ['INVALID_CREDENTIALS', 'TOO_MANY_REQUESTS'],
    auth: 'anonymous',
    keys: 'none',
    noStore: true,
    summary: 'Log in with the OAuth2 password form',
    tag,
  }),
  refresh: defineRoute({
    method: 'POST',
    path: '/api/v1/login/refresh',
    body: RefreshTokenRequestSchema,
    responses: { 200: TokenPairSchema },
    errors: ['REFRESH_TOKEN_INVALID', 'REFRESH_TOKEN_REVOKED', 'REFRESH_TOKEN_EXPIRED', 'TOO_MANY_REQUESTS'],
    auth: 'anonymous',
    keys: 'none',
    noStore: true,
    summary: 'Exchange a refresh token for a new pair (rotation)',
    tag,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/v1/login/logout',
    body: RefreshTokenRequestSchema,
    responses: { 204: null },
    responseDescriptions: { 204: 'Revoked' },
    errors: [],
    auth: 'anonymous',
    keys: 'none',
    summary: 'Revoke one refresh token',
    tag,
  }),
  logoutAll: defineRoute({
    method: 'POST',
    path: '/api/v1/login/logout-all',
    responses: { 204: null },
    responseDescriptions: { 204: 'Revoked' },
    errors: [],
    auth: 'user',
    keys: 'none',
    summary: 'Revoke every token of the caller',
    tag,
  }),
};

const updateMe = (method: 'PUT' | 'PATCH') =>
  defineRoute({
    method,
    path: '/api/v1/users/me',
    body: UpdateMeSchema,
    responses: { 200: userResource.read },
    errors: ['INVALID_CURRENT_PASSWORD', 'VERSION_CONFLICT'],
    auth: 'user',
    keys: 'none',
    etag: true,
    ifMatch: true,
    summary: 'Update the current user',
    tag: 'Users',
  });

/** Users are managed by superusers (no delete: deactivate instead); `/me` is every user's own. */
export const userRoutes = {
  ...crudRoutes(userResource),
  me: defineRoute({
    method: 'GET',
    path: '/api/v1/users/me',
    responses: { 200: userResource.read },
    errors: [],
    auth: 'user',
    keys: 'none',
    etag: true,
    summary: 'The current user',
    tag: 'Users',
  }),
  replaceMe: updateMe('PUT'),
  updateMe: updateMe('PATCH'),
};
