/** The rule both renderers wait by for a rendered page's network to be quiet (`quiet-network.ts`). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quietStep, sleepOrWake } from '../../src/shells/background/adapters/quiet-network.ts';

const base = { now: 10_000, deadline: 20_000, lastActivity: 9_800, idle: true, quietMs: 500, busyPollMs: 1000 };

describe('waiting for a quiet network', () => {
  it('waits out the rest of the quiet period once idle, then is quiet', () => {
    assert.deepEqual(quietStep(base), { kind: 'wait', ms: 300 });
    assert.deepEqual(quietStep({ ...base, now: 10_300 }), { kind: 'quiet' });
  });

  it('while busy, waits for the next activity, or at most the poll, or not at all without one', () => {
    assert.deepEqual(quietStep({ ...base, idle: false, lastActivity: 0 }), { kind: 'wait', ms: 1000 });
    assert.deepEqual(quietStep({ ...base, idle: false, busyPollMs: Number.POSITIVE_INFINITY }), {
      kind: 'wait',
      ms: 10_000,
    });
  });

  it('never waits past the cap, and is capped at it, however busy the page', () => {
    assert.deepEqual(quietStep({ ...base, deadline: 10_100 }), { kind: 'wait', ms: 100 });
    assert.deepEqual(quietStep({ ...base, now: 20_000 }), { kind: 'capped' });
    assert.deepEqual(quietStep({ ...base, now: 20_000, lastActivity: 0 }), { kind: 'capped' });
  });

  it('sleeps the time given, or until woken', async () => {
    let wake: (() => void) | null = null;
    const began = Date.now();
    const sleeping = sleepOrWake(10_000, (w) => (wake = w));
    assert.ok(wake !== null);
    (wake as () => void)();
    await sleeping;
    assert.equal(wake, null);
    assert.ok(Date.now() - began < 5000);
  });
});
