// `pnpm bench auth`: the cost of verifying one access token (ADR 0009), in the same run:
//   floor   node:crypto HMAC-SHA256 over header.payload + a constant-time compare + JSON.parse (what
//           a hand-written HS256 check must at least do, without the claim checks)
//   jose    jwtVerify with the key imported once as a CryptoKey (what the API does)
//   jose-raw jwtVerify given the secret bytes on every call (the import the API avoids)
// and the two failed-login paths (the built PasswordHasher, AIDE_BCRYPT_COST 12): a wrong password
// against a real hash, and an unknown user against the dummy hash; their times should be equal.
import { createHmac, timingSafeEqual, webcrypto } from 'node:crypto';
import { parseArgs } from 'node:util';
import { jwtVerify, SignJWT } from 'jose';
import { PasswordHasher } from '../dist/common/auth/password-hasher.js';

const SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';

async function timePerCall(fn, iterations) {
  for (let i = 0; i < Math.min(2000, iterations); i++) await fn(); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  return Number(process.hrtime.bigint() - start) / iterations / 1000; // µs
}

/** Median milliseconds of `runs` sequential calls. */
async function medianMs(fn, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/** A failed login's password check: wrong password vs unknown user (the dummy-hash compare). */
async function failedLogins(runs) {
  const hasher = new PasswordHasher({ bcryptCost: 12 });
  const stored = await hasher.hash('the-right-password');
  await hasher.verifyNothing('warm-up'); // builds the dummy hash once, as the first unknown login does
  const wrong = await medianMs(() => hasher.verify('a-wrong-password', stored), runs);
  const unknown = await medianMs(() => hasher.verifyNothing('a-wrong-password'), runs);
  process.stdout.write(`failed login password check, bcrypt cost 12, median of ${runs} (ms)\n`);
  process.stdout.write(`  wrong password ${wrong.toFixed(1).padStart(8)} ms\n`);
  process.stdout.write(
    `  unknown user   ${unknown.toFixed(1).padStart(8)} ms  ${(unknown / wrong).toFixed(2)}×\n`,
  );
}

export async function run(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      iterations: { type: 'string', default: '50000' },
      logins: { type: 'string', default: '9' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'pnpm bench auth [--iterations N] [--logins N]   per-token verification cost (µs), then the\n' +
        '  failed-login password check, wrong password vs unknown user (ms, median of N)\n',
    );
    return 0;
  }
  const iterations = Number(values.iterations);
  const raw = new TextEncoder().encode(SECRET);
  const key = await webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  const token = await new SignJWT({ tv: 1, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('00000000-0000-4000-8000-000000000000')
    .setIssuedAt()
    .setExpirationTime('15m')
    .sign(key);
  const options = { algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub'] };
  const [head, payload, signature] = token.split('.');
  const expected = Buffer.from(signature, 'base64url');

  const results = {
    floor: await timePerCall(() => {
      const mac = createHmac('sha256', SECRET).update(`${head}.${payload}`).digest();
      if (!timingSafeEqual(mac, expected)) throw new Error('bad signature');
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    }, iterations),
    jose: await timePerCall(() => jwtVerify(token, key, options), iterations),
    'jose-raw': await timePerCall(() => jwtVerify(token, raw, options), Math.ceil(iterations / 10)),
  };
  process.stdout.write(`per-token verify, ${iterations} iterations (µs; ratio to floor)\n`);
  for (const [name, us] of Object.entries(results)) {
    process.stdout.write(
      `  ${name.padEnd(9)} ${us.toFixed(1).padStart(8)} µs  ${(us / results.floor).toFixed(2)}×\n`,
    );
  }
  await failedLogins(Number(values.logins));
  return 0;
}
