import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { CrashWindow } from '@writev/client/out/crashWindow';
import { describeStatus } from '@writev/client/out/statusView';

describe('describeStatus', () => {
  it('counts the findings of the file analysed', () => {
    const view = describeStatus({ state: 'running', fileName: 'pkt-line.c', findings: 3, crashes: 0 });
    assert.equal(view.text, 'writev: 3 findings');
    assert.equal(view.detail, 'pkt-line.c analysed');
    assert.equal(view.severity, 'information');
    assert.equal(view.action.command, 'writev.showOutput');
    assert.equal(
      describeStatus({ state: 'running', fileName: 'a.ts', findings: 1, crashes: 0 }).text,
      'writev: 1 finding',
    );
    assert.equal(
      describeStatus({ state: 'running', fileName: 'a.ts', findings: 0, crashes: 0 }).text,
      'writev: no findings',
    );
  });

  it('shows a crashed server as an error that offers a restart', () => {
    const view = describeStatus({ state: 'crashed', fileName: 'a.c', findings: 0, crashes: 5 });
    assert.equal(view.severity, 'error');
    assert.match(view.text, /server stopped/);
    assert.match(view.detail, /crashed 5 times; no hints/);
    assert.deepEqual(view.action, { title: 'Restart', command: 'writev.restartServer' });
  });

  it('warns after the server recovered from a crash', () => {
    const view = describeStatus({ state: 'running', fileName: 'a.c', findings: 2, crashes: 1 });
    assert.equal(view.severity, 'warning');
    assert.match(view.detail, /restarted after a crash/);
  });

  it('is busy while starting', () => {
    const view = describeStatus({ state: 'starting', fileName: undefined, findings: 0, crashes: 0 });
    assert.equal(view.busy, true);
    assert.equal(view.text, 'writev: starting');
  });
});

describe('CrashWindow', () => {
  it('gives up after five crashes within three minutes, and forgets older ones', () => {
    let now = 0;
    const w = new CrashWindow(() => now);
    for (let i = 0; i < 4; i++) w.record();
    assert.equal(w.exhausted(), false);
    now = 4 * 60_000; // the first four are older than the window now
    w.record();
    assert.equal(w.count(), 1);
    for (let i = 0; i < 4; i++) w.record();
    assert.equal(w.exhausted(), true);
    w.reset();
    assert.equal(w.count(), 0);
  });
});
