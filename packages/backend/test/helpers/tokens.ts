import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { TEST_JWT_SECRET } from './test-app.js';

export const SECRET_KEY = new TextEncoder().encode(TEST_JWT_SECRET);

export interface ForgeOptions {
  alg?: string;
  key?: Parameters<SignJWT['sign']>[0];
  /** Seconds since the epoch; `null` leaves the claim out. */
  iat?: number | null;
  exp?: number | null;
  tv?: number;
  typ?: string;
  sub?: string;
}

const now = () => Math.floor(Date.now() / 1000);

/** An access token shaped like the server's ({sub, user_id, tv, typ, iat, exp, jti}), signed as asked. */
export function forgeToken(userId: string, options: ForgeOptions = {}): Promise<string> {
  const claims: Record<string, unknown> = {
    user_id: userId,
    tv: options.tv ?? 1,
    typ: options.typ ?? 'access',
  };
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(options.sub ?? userId)
    .setJti(randomUUID());
  const iat = options.iat === undefined ? now() : options.iat;
  const exp = options.exp === undefined ? now() + 600 : options.exp;
  if (iat !== null) jwt.setIssuedAt(iat);
  if (exp !== null) jwt.setExpirationTime(exp);
  return jwt.sign(options.key ?? SECRET_KEY);
}

export function b64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/** Replaces the header of a signed token, keeping its payload and signature. */
export function withHeader(token: string, header: Record<string, unknown>): string {
  const [, payload, signature] = token.split('.');
  return `${b64url(header)}.${payload}.${signature}`;
}

/** Decodes the payload of a JWT without verifying it. */
export function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}
