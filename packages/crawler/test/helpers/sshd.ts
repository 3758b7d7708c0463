// A real OpenSSH server for the SFTP tests (issue 24: Debian's openssh-server, as CI installs it in
// .ci/run): its own config, host key and authorized key in a temp folder, listening on a free loopback
// port, SFTP only (ForceCommand internal-sftp). Key auth logs in as root (we run as root); password
// auth uses a user made for this run with a random password and removed by stop(), so no account
// with a known password is ever left on the machine.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const SSHD = '/usr/sbin/sshd';

export interface TestSshd {
  host: string;
  port: number;
  /** A folder readable by both users, to put the served files in. */
  served: string;
  /** The private key authorized for root. */
  userKey: string;
  /** A private key the server does not know. */
  strangerKey: string;
  /** A known_hosts file holding the server's key. */
  knownHosts: string;
  /** A known_hosts file holding another key for the server's address. */
  wrongKnownHosts: string;
  /** The password login: a user of this run. */
  passwordUser: { name: string; password: string };
  stop(): Promise<void>;
}

export async function startSshd(): Promise<TestSshd> {
  if (!existsSync(SSHD)) {
    throw new Error(`${SSHD} is missing: apt-get install -y openssh-server (.ci/run installs it)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'aide-sshd-'));
  chmodSync(dir, 0o755);
  const served = join(dir, 'served');
  mkdirSync(served, { mode: 0o755 });
  const keygen = (file: string) =>
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'aide-test', '-f', file]);
  for (const key of ['host_key', 'other_host_key', 'user_key', 'stranger_key']) keygen(join(dir, key));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')));
  // sshd refuses to start without its privilege separation folder (made by systemd where it runs).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

  const passwordUser = {
    name: `aidesftp${randomBytes(4).toString('hex')}`,
    password: randomBytes(18).toString('base64url'),
  };
  execFileSync('useradd', [
    '--no-create-home',
    '--home-dir',
    served,
    '--shell',
    '/usr/sbin/nologin',
    passwordUser.name,
  ]);
  execFileSync('chpasswd', { input: `${passwordUser.name}:${passwordUser.password}\n` });

  let server: ChildProcess | undefined;
  let port = 0;
  try {
    // A port found free may be taken before sshd binds it: then sshd exits, and another is tried.
    for (let attempt = 0; attempt < 5 && server === undefined; attempt++) {
      port = await freePort();
      writeFileSync(join(dir, 'sshd_config'), config(dir, port, passwordUser.name));
      const started = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let log = '';
      started.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      if (await answersSsh(port, started)) server = started;
      else if (!/Address already in use/.test(log)) throw new Error(`sshd did not start: ${log}`);
    }
    if (server === undefined) throw new Error('sshd found no free port');
  } catch (error) {
    removeUser(passwordUser.name);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const hostKey = (file: string) => readFileSync(join(dir, file), 'utf8').split(' ').slice(0, 2).join(' ');
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${hostKey('host_key.pub')}\n`);
  const wrongKnownHosts = join(dir, 'wrong_known_hosts');
  writeFileSync(wrongKnownHosts, `[127.0.0.1]:${port} ${hostKey('other_host_key.pub')}\n`);
  const running = server;
  return {
    host: '127.0.0.1',
    port,
    served,
    userKey: join(dir, 'user_key'),
    strangerKey: join(dir, 'stranger_key'),
    knownHosts,
    wrongKnownHosts,
    passwordUser,
    async stop() {
      if (running.exitCode === null) {
        const exited = new Promise((resolve) => running.once('exit', resolve));
        running.kill('SIGTERM');
        await exited;
      }
      removeUser(passwordUser.name);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function config(dir: string, port: number, user: string): string {
  return `Port ${port}
ListenAddress 127.0.0.1
HostKey ${join(dir, 'host_key')}
PidFile ${join(dir, 'sshd.pid')}
AuthorizedKeysFile ${join(dir, 'authorized_keys')}
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication yes
KbdInteractiveAuthentication no
AllowUsers root ${user}
Subsystem sftp internal-sftp
ForceCommand internal-sftp
AllowTcpForwarding no
AllowAgentForwarding no
X11Forwarding no
PermitTTY no
LogLevel ERROR
`;
}

function removeUser(name: string): void {
  try {
    execFileSync('userdel', [name], { stdio: 'ignore' });
  } catch {
    // already gone
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Polls the port until it greets with an SSH banner (true) or the server exits (false). */
async function answersSsh(port: number, server: ChildProcess): Promise<boolean> {
  let exited = server.exitCode !== null;
  server.once('exit', () => (exited = true));
  for (let poll = 0; poll < 600; poll++) {
    if (exited) return false;
    if (await banner(port)) return true;
    await delay(50); // the pause between two polls, not a wait for readiness
  }
  throw new Error(`sshd did not answer on port ${port} within 600 polls`);
}

function banner(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('SSH-2.0-'));
    });
    socket.once('error', () => resolve(false));
  });
}
