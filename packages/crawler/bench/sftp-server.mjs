// An OpenSSH server for `pnpm bench sources --sftp`: Debian's sshd on a free loopback port with its own
// host and user keys (key login for the current user only, SFTP only), serving the whole file system.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const SSHD = '/usr/sbin/sshd';

export async function startSftpServer() {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: apt-get install -y openssh-server`);
  const dir = mkdtempSync(join(tmpdir(), 'aide-bench-sshd-'));
  for (const key of ['host_key', 'user_key']) {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, key)]);
  }
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')));
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const user = userInfo().username;
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      `AllowUsers ${user}`,
      'Subsystem sftp internal-sftp',
      'ForceCommand internal-sftp',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const server = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: 'ignore' });
  for (let poll = 0; !(await greets(port)); poll++) {
    if (server.exitCode !== null || poll > 600) throw new Error('sshd did not start');
    await delay(50); // the pause between two polls, not a wait for readiness
  }
  const hostKey = readFileSync(join(dir, 'host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostKey}\n`);
  return {
    port,
    user,
    userKey: join(dir, 'user_key'),
    knownHosts: join(dir, 'known_hosts'),
    async stop() {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function greets(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('SSH-2.0-'));
    });
    socket.once('error', () => resolve(false));
  });
}
