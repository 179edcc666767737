// Runs a throwaway single-node OpenStack Swift with the S3 API (s3api + tempauth) on loopback,
// so the S3 storage adapter is tested against a real S3-compatible server.
//
// Debian's packages are installed when missing (as root only). Each call makes its own temp dir
// with rings, configs and a storage device, and starts four processes: proxy, account, container
// and object servers, each with workers = 0 so the server runs in the spawned process itself.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SwiftS3 {
  endpoint: string;
  region: string;
  /** tempauth's S3 access key is "<account>:<user>". */
  accessKeyId: string;
  secretAccessKey: string;
  /** How long the servers took to answer, for the record. */
  startupMs: number;
  stop(): Promise<void>;
}

const PACKAGES = ['swift', 'swift-proxy', 'swift-account', 'swift-container', 'swift-object'];
const BINARIES = [
  '/usr/bin/swift-proxy-server',
  '/usr/bin/swift-account-server',
  '/usr/bin/swift-container-server',
  '/usr/bin/swift-object-server',
];
const SERVERS = ['account', 'container', 'object', 'proxy'] as const;
const ACCOUNT = 'herald';
const USER = 'tester';
const KEY = 'herald-test-secret';
const REGION = 'us-east-1';

// set_swift_dir makes Swift read swift.conf from our temp dir instead of /etc/swift.
const LAUNCHER = [
  'import sys',
  'from swift.common import utils',
  'utils.set_swift_dir(sys.argv[1])',
  'from swift.common.wsgi import run_wsgi',
  'sys.exit(run_wsgi(sys.argv[2], sys.argv[3], verbose=True))',
].join('\n');

async function ensureInstalled(): Promise<void> {
  if (BINARIES.every((b) => existsSync(b))) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `OpenStack Swift is not installed and these tests are not running as root; run: apt-get install -y ${PACKAGES.join(' ')}`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    await run('apt-get', ['update'], { env, maxBuffer: 64 << 20 });
    await run('apt-get', ['install', '-y', '--no-install-recommends', ...PACKAGES], { env, maxBuffer: 64 << 20 });
  } catch (err) {
    throw new Error(`installing Swift with apt-get failed: ${(err as Error).message}`);
  }
  const missing = BINARIES.filter((b) => !existsSync(b));
  if (missing.length) throw new Error(`Swift packages installed but ${missing.join(', ')} still missing`);
}

/** The interpreter Debian's Swift scripts use; a pyenv python earlier on PATH lacks the swift module. */
function swiftPython(): string {
  const shebang = readFileSync('/usr/bin/swift-proxy-server', 'utf8').split('\n')[0] ?? '';
  const match = /^#!\s*(\S+)/.exec(shebang);
  return match?.[1] ?? '/usr/bin/python3';
}

function serverConf(name: string, port: number, etc: string, devices: string): string {
  return `[DEFAULT]
devices = ${devices}
mount_check = false
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
swift_dir = ${etc}

[pipeline:main]
pipeline = ${name}-server

[app:${name}-server]
use = egg:swift#${name}
`;
}

function proxyConf(port: number, etc: string, deadMemcachePort: number): string {
  // s3api must sit before tempauth, and slo after s3api for multipart uploads.
  // tempauth insists on a cache middleware; nothing listens on its port, so lookups just miss.
  return `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
swift_dir = ${etc}

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
location = ${REGION}

[filter:tempauth]
use = egg:swift#tempauth
user_${ACCOUNT}_${USER} = ${KEY} .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${deadMemcachePort}

[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
`;
}

// The swift-ring-builder CLI would need nine Python start-ups (create, add, rebalance per ring; ~0.7 s
// each, far more on a loaded machine); its RingBuilder class does the same in one process.
// Equivalent to: swift-ring-builder <ring>.builder create 6 1 0; ... add r1z1-127.0.0.1:<port>/d1 100; ... rebalance
const RING_SCRIPT = `
import json, sys
from swift.common.ring import RingBuilder
etc, ports = sys.argv[1], json.loads(sys.argv[2])
for name, port in ports.items():
    builder = RingBuilder(6, 1, 0)  # 2^6 partitions, 1 replica, no minimum hours between moves
    builder.add_dev({'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': port, 'replication_ip': '127.0.0.1',
                     'replication_port': port, 'device': 'd1', 'weight': 100, 'meta': ''})
    builder.rebalance()
    builder.get_ring().save('%s/%s.ring.gz' % (etc, name))
    builder.save('%s/%s.builder' % (etc, name))
`;
import { freePort } from './net.ts';
import { S3Client } from '@aws-sdk/client-s3';

async function buildRings(
  python: string,
  etc: string,
  ports: Record<'account' | 'container' | 'object', number>,
): Promise<void> {
  const { account, container, object } = ports;
  await run(python, ['-c', RING_SCRIPT, etc, JSON.stringify({ account, container, object })]);
}

function answersHttp(port: number, path: string, expect?: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(reply);
      if (status) done(expect === undefined || Number(status[1]) === expect);
    });
  });
}

function logTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Creates (idempotently) a probe bucket through the S3 API. Swift's own auth endpoint is no probe here:
 * tempauth keeps its tokens in memcache, which this single-node setup does not run.
 */
async function writesWork(proxyPort: number): Promise<boolean> {
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${proxyPort}`,
    region: REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: `${ACCOUNT}:${USER}`, secretAccessKey: KEY },
    maxAttempts: 1,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: 'readiness-probe' }));
    return true;
  } catch (err) {
    return (
      (err as { name?: string }).name === 'BucketAlreadyOwnedByYou' ||
      (err as { name?: string }).name === 'BucketAlreadyExists'
    );
  } finally {
    client.destroy();
  }
}

export async function startSwift(opts: { timeoutMs?: number } = {}): Promise<SwiftS3> {
  await ensureInstalled();
  const started = Date.now();
  const base = await mkdtemp(join(tmpdir(), 'herald-swift-'));
  const etc = join(base, 'etc');
  const devices = join(base, 'srv');
  await mkdir(etc);
  await mkdir(join(devices, 'd1'), { recursive: true });
  const ports = {
    account: await freePort(),
    container: await freePort(),
    object: await freePort(),
    proxy: await freePort(),
  };
  const deadMemcachePort = await freePort();

  await writeFile(
    join(etc, 'swift.conf'),
    '[swift-hash]\nswift_hash_path_suffix = herald-test\nswift_hash_path_prefix = herald-test\n\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n',
  );
  const python = swiftPython();
  try {
    await buildRings(python, etc, ports);
    for (const name of ['account', 'container', 'object'] as const) {
      await writeFile(join(etc, `${name}-server.conf`), serverConf(name, ports[name], etc, devices));
    }
    await writeFile(join(etc, 'proxy-server.conf'), proxyConf(ports.proxy, etc, deadMemcachePort));
  } catch (err) {
    await rm(base, { recursive: true, force: true });
    throw new Error(`could not prepare the Swift configuration: ${(err as Error).message}`);
  }

  const children: ChildProcess[] = [];
  const exits: string[] = [];
  const killAll = (): void => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  for (const name of SERVERS) {
    const log = join(base, `${name}.log`);
    const out = openSync(log, 'w');
    const child = spawn(python, ['-c', LAUNCHER, etc, join(etc, `${name}-server.conf`), `${name}-server`], {
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    child.on('error', (err) => exits.push(`${name}-server could not start: ${err.message}`));
    child.on('exit', (code, signal) => exits.push(`${name}-server exited (${signal ?? code}):\n${logTail(log)}`));
    children.push(child);
  }

  const stop = async (): Promise<void> => {
    process.removeListener('exit', killAll);
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const force = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    await rm(base, { recursive: true, force: true });
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (exits.length) {
      await stop();
      throw new Error(`Swift failed to start:\n${exits.join('\n')}`);
    }
    const ready = await Promise.all([
      answersHttp(ports.proxy, '/healthcheck', 200),
      answersHttp(ports.account, '/'),
      answersHttp(ports.container, '/'),
      answersHttp(ports.object, '/'),
    ]);
    // Servers answering is not enough: on a loaded machine the first writes still get 503 ("reduce your
    // request rate") until account and container servers serve requests. Ready = a container write works.
    if (ready.every(Boolean) && (await writesWork(ports.proxy))) break;
    if (Date.now() > deadline) {
      const logs = SERVERS.map((n) => `--- ${n}\n${logTail(join(base, `${n}.log`))}`).join('\n');
      await stop();
      throw new Error(`Swift did not become ready within ${opts.timeoutMs ?? 60_000} ms:\n${logs}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    endpoint: `http://127.0.0.1:${ports.proxy}`,
    region: REGION,
    accessKeyId: `${ACCOUNT}:${USER}`,
    secretAccessKey: KEY,
    startupMs: Date.now() - started,
    stop,
  };
}

/** An S3 client of the test server with its own credentials: what a test uses to make buckets and look at objects. */
export function swiftAdmin(swift: SwiftS3): S3Client {
  return new S3Client({
    region: swift.region,
    endpoint: swift.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
