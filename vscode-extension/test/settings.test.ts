import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverSettings, settingsPayload, SettingsSource } from '../src/settings';

/** A configuration like vscode's: dotted keys inside the hooklens section. */
function config(values: Record<string, unknown>): SettingsSource {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

describe('settings mapping', () => {
  it('maps targets, rules and the debounce to the server section', () => {
    const c = config({ 'targets.kubernetes': '1.29', 'targets.helm': '4', 'targets.deployer': 'argocd',
      rules: { HL402: 'off', HL4xx: 'error' }, debounceMs: 150, 'java.home': '/opt/jdk', 'trace.server': 'verbose' });
    assert.deepEqual(settingsPayload(c), { hooklens: { targets: { kubernetes: '1.29', helm: '4', deployer: 'argocd' },
      rules: { HL402: 'off', HL4xx: 'error' }, debounceMs: 150 } });
  });

  it('leaves unset values to .hooklens.yaml', () => {
    assert.deepEqual(serverSettings(config({ 'targets.kubernetes': null, 'targets.helm': '', rules: {} })), {});
    assert.deepEqual(serverSettings(config({ 'targets.deployer': 'flux' })), { targets: { deployer: 'flux' } });
  });

  it('keeps the digits of a version written as a number and drops empty rule entries', () => {
    assert.deepEqual(serverSettings(config({ 'targets.kubernetes': 1.3, rules: { ' HL401 ': 'warning', HL402: '', '': 'off' } })),
      { targets: { kubernetes: '1.3' }, rules: { HL401: 'warning' } });
  });

  it('passes a bad severity on for the server to report, and ignores a rules value of the wrong shape', () => {
    assert.deepEqual(serverSettings(config({ rules: { HL401: 'loud' } })), { rules: { HL401: 'loud' } });
    assert.deepEqual(serverSettings(config({ rules: ['HL401'], debounceMs: 'fast' })), {});
    assert.deepEqual(serverSettings(config({ rules: { HL402: false } })), { rules: { HL402: 'off' } });
  });

  it('maps Helm values sets and set values, leaving empty ones to .hooklens.yaml', () => {
    assert.deepEqual(serverSettings(config({ 'helm.values': ['ci/prod.yaml', ' ', 3], 'helm.set': { grace: 60, on: true, ' ': 'x' } })),
      { helm: { values: ['ci/prod.yaml', '3'], set: { grace: '60', on: 'true' } } });
    assert.deepEqual(serverSettings(config({ 'helm.values': [], 'helm.set': {} })), {});
    assert.deepEqual(serverSettings(config({ 'helm.values': 'prod.yaml', 'helm.set': ['a'] })), {});
  });

  it('maps the release name and namespace, passing a bad one on for the server to report', () => {
    assert.deepEqual(serverSettings(config({ 'helm.releaseName': ' shop ', 'helm.namespace': 'web' })),
      { helm: { releaseName: 'shop', namespace: 'web' } });
    assert.deepEqual(serverSettings(config({ 'helm.releaseName': 'Shop_1', 'helm.namespace': null })),
      { helm: { releaseName: 'Shop_1' } });
    assert.deepEqual(serverSettings(config({ 'helm.releaseName': '', 'helm.namespace': ' ' })), {});
  });
});
