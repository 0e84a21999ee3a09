import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timelineHtml } from '../src/timeline';

describe('timeline page', () => {
  const svg = '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><text fill="currentColor">SIGKILL</text></svg>\n';

  it('inlines the SVG themed by the editor colours, with no script and no remote content', () => {
    const html = timelineHtml(svg, '/tmp/hooklens-run-1/timeline.svg');
    assert.match(html, /<div class="timeline"><svg /);
    assert.match(html, /SIGKILL/);
    assert.doesNotMatch(html, /<\?xml/);
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /default-src 'none'/);
    assert.match(html, /color: var\(--vscode-editor-foreground\)/);
  });

  it('escapes the file name', () => {
    assert.match(timelineHtml('<svg/>', '/tmp/<a&b>.svg'), /\/tmp\/&lt;a&amp;b&gt;\.svg/);
  });
});
