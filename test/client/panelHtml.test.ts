import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { makeNonce, panelCsp, panelHtml } from '@writev/client/out/bench/panelHtml';

const assets = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  script: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/benchmarks.js',
  chart: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/chart.umd.js',
  style: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/benchmarks.css',
};

describe('panelHtml', () => {
  it('allows nothing by default, and scripts only with the nonce', () => {
    const csp = panelCsp(assets.cspSource, 'abc');
    assert.match(csp, /^default-src 'none'; /);
    assert.match(csp, /script-src 'nonce-abc'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  it('loads every script with the nonce and every asset from the webview URIs', () => {
    const nonce = makeNonce();
    const html = panelHtml(assets, nonce);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    assert.equal(scripts.length, 2);
    for (const s of scripts) assert.ok(s.includes(`nonce="${nonce}"`), s);
    for (const url of [assets.script, assets.chart, assets.style]) assert.ok(html.includes(`"${url}"`), url);
    assert.doesNotMatch(html, /style="|<style|onclick=/);
  });

  it('makes a different 128-bit nonce for every load', () => {
    const a = makeNonce();
    assert.equal(Buffer.from(a, 'base64').length, 16);
    assert.notEqual(a, makeNonce());
  });
});
