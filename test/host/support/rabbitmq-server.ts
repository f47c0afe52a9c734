// A real RabbitMQ (Debian's rabbitmq-server; .ci/run installs it) on loopback ports the test picks, as an
// unprivileged node of its own: its name, database, logs, configuration, Erlang cookie and HOME in a temporary
// directory, no plugin, and an epmd of its own (Erlang's port mapper, started here so that it is stopped
// here: the one RabbitMQ would start outlives it). Stopped by PID (the server's whole process group). Starting
// takes seconds: one server per test file. Starts processes: tests that use it are integration tests.

import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess } from './server-process.js';
import { freePort, tempDir } from './svc.js';

export interface RabbitMq {
  /** `amqp://guest:guest@127.0.0.1:<port>/%2f` */
  url: string;
  port: number;
  /** Stops the server, then its epmd, and waits for both to exit. */
  stop(): Promise<void>;
}

/** Debian's server script (its /usr/sbin wrapper runs it as the `rabbitmq` user, in /var/lib/rabbitmq). */
const SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';

/** A free port can be taken by another process before the server binds it (Erlang then stops at once, with
 * `dist_port_already_used`): a start that fails is tried again on fresh ports. */
const START_ATTEMPTS = 3;

export async function startRabbitMq(): Promise<RabbitMq> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePorts();
    } catch (error) {
      if (attempt === START_ATTEMPTS) throw error;
    }
  }
}

async function startOnFreePorts(): Promise<RabbitMq> {
  const [port, distPort, epmdPort] = [await freePort(), await freePort(), await freePort()];
  const dir = tempDir();
  writeFileSync(join(dir, '.erlang.cookie'), `svc-test-${process.pid}-${port}`);
  chmodSync(join(dir, '.erlang.cookie'), 0o400);
  // guest may connect from loopback only by default; loopback is all the tests use.
  writeFileSync(join(dir, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${port}\n`);
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  const env = {
    ...process.env,
    HOME: dir,
    // Where a node that fails to start writes its crash dump (the working directory otherwise: the repository).
    ERL_CRASH_DUMP: join(dir, 'erl_crash.dump'),
    ERL_EPMD_PORT: String(epmdPort),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_NODENAME: `svc-test-${process.pid}-${port}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
  };
  const epmd = await startServerProcess('epmd', ['-port', String(epmdPort), '-address', '127.0.0.1'], epmdPort, {
    env,
  });
  try {
    // Erlang's start takes seconds, more on a busy machine.
    const server = await startServerProcess('rabbitmq-server', [], port, {
      binary: SERVER,
      env,
      group: true,
      startMs: 120_000,
    });
    return {
      url: `amqp://guest:guest@127.0.0.1:${port}/%2f`,
      port,
      async stop() {
        await server.stop();
        await epmd.stop();
      },
    };
  } catch (error) {
    await epmd.stop();
    throw error;
  }
}
