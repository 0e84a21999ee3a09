// The termination timeline webview's page: the SVG the hook runner writes, inlined into a page that takes VS Code's
// theme colours. The SVG draws text and axes in currentColor, so setting `color` themes it.
/** The page: no scripts, no remote content (the policy allows inline styles only). */
export function timelineHtml(svg: string, file: string): string {
  const body = svg.replace(/^<\?xml[^>]*>\s*/, '').replace(/<script[\s\S]*?<\/script>/gi, '');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;">
<title>Hooklens: termination timeline</title>
<style>
  body { background: var(--vscode-editor-background); color: var(--vscode-editor-foreground);
         font-family: var(--vscode-font-family); padding: 12px; }
  .timeline svg { color: var(--vscode-editor-foreground) !important; max-width: 100%; height: auto; }
  .file { color: var(--vscode-descriptionForeground); font-size: 0.9em; margin-bottom: 8px; }
</style>
</head>
<body>
<div class="file">${escapeHtml(file)}</div>
<div class="timeline">${body}</div>
</body>
</html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}
