import { createHash, randomBytes, randomUUID, webcrypto } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { jwtVerify, SignJWT } from 'jose';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';

export interface AccessClaims {
  sub: string;
  tv: number;
}

/** Issues and verifies access tokens (HS256 only) and makes refresh-token values. */
@Injectable()
export class TokenService {
  // Imported once as a CryptoKey: given raw bytes or a KeyObject, jose imports the key on every call.
  private readonly key: Promise<webcrypto.CryptoKey>;
  /** The key once imported: verifying with it saves every request an await. */
  private importedKey: webcrypto.CryptoKey | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: ResolvedConfig) {
    this.key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(config.jwtSecret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    void this.key.then(
      (key) => (this.importedKey = key),
      () => undefined, // reported by the first sign or verify, which awaits the same promise
    );
  }

  get accessTtlSeconds(): number {
    return this.config.accessTokenTtlSeconds;
  }

  async signAccess(userId: string, tokenVersion: number): Promise<string> {
    return new SignJWT({ user_id: userId, tv: tokenVersion, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${this.config.accessTokenTtlSeconds}s`)
      .sign(await this.key);
  }

  /** Verifies signature, algorithm (HS256 pinned), `exp`, `iat` and `sub`; undefined for any bad token. */
  async verifyAccess(token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.importedKey ?? (await this.key), {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      if (
        payload['typ'] !== 'access' ||
        typeof payload['tv'] !== 'number' ||
        typeof payload.sub !== 'string'
      ) {
        return undefined;
      }
      return { sub: payload.sub, tv: payload['tv'] };
    } catch {
      return undefined;
    }
  }

  /** 48 random bytes, URL-safe; only its SHA-256 is stored. */
  newRefreshToken(): { token: string; hash: string } {
    const token = randomBytes(48).toString('base64url');
    return { token, hash: hashRefreshToken(token) };
  }
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
