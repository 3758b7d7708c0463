// The host key check of an SFTP connection, against an OpenSSH known_hosts file (sshd(8), "SSH_KNOWN_HOSTS
// FILE FORMAT"): plain and hashed (`|1|salt|hash`) host names, `[host]:port` for other ports than 22,
// `*`/`?` wildcards and `!` negations, `@revoked` keys. `@cert-authority` lines are skipped (host
// certificates are not supported): such a host is unknown.
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

export type HostKeyVerdict =
  | { status: 'known' }
  | { status: 'unknown' }
  | { status: 'changed'; knownTypes: string[] }
  | { status: 'revoked' };

interface KnownKey {
  marker: '' | '@revoked' | '@cert-authority';
  hosts: string;
  type: string;
  blob: Buffer;
}

/** The keys of a known_hosts file; none when the file does not exist. */
export function readKnownHosts(file: string): KnownKey[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const keys: KnownKey[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === '' || fields[0].startsWith('#')) continue;
    const marker = fields[0].startsWith('@') ? fields.shift()! : '';
    if (marker !== '' && marker !== '@revoked' && marker !== '@cert-authority') continue;
    const [hosts, type, base64] = fields;
    if (hosts === undefined || type === undefined || base64 === undefined) continue;
    keys.push({ marker, hosts, type, blob: Buffer.from(base64, 'base64') });
  }
  return keys;
}

/** How known_hosts names a host: `host` on port 22, `[host]:port` on others. */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** Whether `key` (the server's host key blob) is the one known for the host. */
export function verifyHostKey(keys: KnownKey[], hostName: string, key: Buffer): HostKeyVerdict {
  const forHost = keys.filter((known) => hostsMatch(known.hosts, hostName));
  if (forHost.some((known) => known.marker === '@revoked' && known.blob.equals(key))) {
    return { status: 'revoked' };
  }
  const plain = forHost.filter((known) => known.marker === '');
  if (plain.some((known) => known.blob.equals(key))) return { status: 'known' };
  if (plain.length === 0) return { status: 'unknown' };
  return { status: 'changed', knownTypes: [...new Set(plain.map((known) => known.type))] };
}

/** The host key algorithms to offer first, so that a key known_hosts holds is the one negotiated. */
export function preferredHostKeyAlgorithms(keys: KnownKey[], hostName: string): string[] {
  const types = keys
    .filter((known) => known.marker === '' && hostsMatch(known.hosts, hostName))
    .map((known) => known.type);
  return [
    ...new Set(
      types.flatMap((type) => (type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type])),
    ),
  ];
}

/** The key's type name, the first string of its wire encoding (`ssh-ed25519`). */
export function keyType(blob: Buffer): string {
  if (blob.length < 4) return 'unknown';
  const length = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + length).toString('latin1');
}

/** OpenSSH's fingerprint: `SHA256:` and the unpadded base64 of the blob's SHA-256. */
export function fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

function hostsMatch(hosts: string, hostName: string): boolean {
  if (hosts.startsWith('|1|')) {
    const [, , salt, hash] = hosts.split('|');
    if (salt === undefined || hash === undefined) return false;
    const digest = createHmac('sha1', Buffer.from(salt, 'base64')).update(hostName).digest('base64');
    return digest === hash;
  }
  let matched = false;
  for (const pattern of hosts.split(',')) {
    const negated = pattern.startsWith('!');
    if (!wildcard(negated ? pattern.slice(1) : pattern).test(hostName)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function wildcard(pattern: string): RegExp {
  const source = pattern
    .toLowerCase()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i');
}
