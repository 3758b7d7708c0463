import { describe, expect, it } from '@jest/globals';
import { ConnectionShare } from './connection-share.js';

/** A piece of work that runs until `finish()` is called; `started` tells whether it began. */
function gate() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const state = { started: false };
  const work = async () => {
    state.started = true;
    await done;
    return 'done';
  };
  return { work, finish, state };
}

const busy = () => new Error('busy');
/** Lets every queued callback and promise continuation run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ConnectionShare', () => {
  it('runs at most `concurrency` at once, queues up to `queue`, refuses the rest at once', async () => {
    const share = new ConnectionShare(2, 1);
    const [a, b, c] = [gate(), gate(), gate()];
    const runA = share.run(a.work, busy);
    const runB = share.run(b.work, busy);
    const runC = share.run(c.work, busy);
    await settle();
    expect([a.state.started, b.state.started, c.state.started]).toEqual([true, true, false]);
    expect(share.load).toEqual({ running: 2, waiting: 1 });
    await expect(share.run(() => Promise.resolve('never'), busy)).rejects.toThrow('busy');

    a.finish();
    await expect(runA).resolves.toBe('done');
    await settle();
    // A's slot went to C, the first in the queue.
    expect(c.state.started).toBe(true);
    expect(share.load).toEqual({ running: 2, waiting: 0 });
    b.finish();
    c.finish();
    await Promise.all([runB, runC]);
    expect(share.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot when the work fails', async () => {
    const share = new ConnectionShare(1, 0);
    await expect(share.run(() => Promise.reject(new Error('boom')), busy)).rejects.toThrow('boom');
    await expect(share.run(() => Promise.resolve('next'), busy)).resolves.toBe('next');
    expect(share.load).toEqual({ running: 0, waiting: 0 });
  });

  it('serves the queue in arrival order', async () => {
    const share = new ConnectionShare(1, 3);
    const first = gate();
    const order: number[] = [];
    const runs = [share.run(first.work, busy)];
    for (const n of [1, 2, 3]) runs.push(share.run(() => Promise.resolve((order.push(n), 'ok')), busy));
    first.finish();
    await Promise.all(runs);
    expect(order).toEqual([1, 2, 3]);
  });

  it('refuses a concurrency below 1 or a negative queue', () => {
    expect(() => new ConnectionShare(0, 0)).toThrow(RangeError);
    expect(() => new ConnectionShare(1, -1)).toThrow(RangeError);
  });
});
