import { createHash, randomBytes } from 'node:crypto';

/** Keys carry a recognisable prefix (secret scanners, logs) and 256 random bits. */
const KEY_PREFIX = 'aidek_';

export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, KEY_PREFIX.length + 6), hash: hashApiKey(key) };
}

/**
 * SHA-256, not a password hash: a key has 256 bits of entropy, so a fast hash is safe and lets the
 * authenticator find the key by an indexed lookup.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX);
}
