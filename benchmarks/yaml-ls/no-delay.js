// Preloaded with `node -r` by latency.js --no-delay: yaml-language-server 1.25.0 waits a fixed 200 ms
// (SettingsState.validationDelayMs, set in its constructor, no setting for it) before validating
// after each change. Pinning it to 0 leaves exactly the server's own validation work to measure.
'use strict';
const { SettingsState } = require('yaml-language-server/out/server/src/yamlSettings');

Object.defineProperty(SettingsState.prototype, 'validationDelayMs', {
  get() { return 0; },
  set() { /* the constructor's 200 is dropped */ },
});
