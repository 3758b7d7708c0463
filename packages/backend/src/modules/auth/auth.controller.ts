import { LoginFormSchema, type LoginForm, RefreshTokenRequestSchema, type TokenPair } from '@aide/schemas';
import { applyDecorators, Body, Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type AuthUser, CurrentUser, Public } from '../../common/auth/current-user.js';
import { body } from '../../common/validation/zod.pipe.js';
import { AuthService, type ClientInfo } from './auth.service.js';

function client(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** Responses carrying tokens must not be stored by any cache (RFC 6749, section 5.1). */
const NoStore = () => applyDecorators(Header('Cache-Control', 'no-store'), Header('Pragma', 'no-cache'));

@Controller('api/v1/login')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post()
  @Public()
  @HttpCode(200)
  @NoStore()
  login(@Body(body(LoginFormSchema)) form: LoginForm, @Req() request: FastifyRequest): Promise<TokenPair> {
    return this.auth.login(form, client(request));
  }

  @Post('refresh')
  @Public()
  @HttpCode(200)
  @NoStore()
  refresh(
    @Body(body(RefreshTokenRequestSchema)) input: { refresh_token: string },
    @Req() request: FastifyRequest,
  ): Promise<TokenPair> {
    return this.auth.refresh(input.refresh_token, client(request));
  }

  @Post('logout')
  @Public()
  @HttpCode(204)
  async logout(@Body(body(RefreshTokenRequestSchema)) input: { refresh_token: string }): Promise<void> {
    await this.auth.logout(input.refresh_token);
  }

  @Post('logout-all')
  @HttpCode(204)
  async logoutAll(@CurrentUser() user: AuthUser): Promise<void> {
    await this.auth.logoutAll(user);
  }
}
