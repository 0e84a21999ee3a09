// Which documents go to the language server. It mirrors the server's own choice (io.hooklens.lsp.ManifestFiles,
// docs/editors.md, "Files") so that a docker-compose.yml, a GitHub workflow or VS Code's tasks.json
// never leaves the editor, while every manifest and chart template does.

/** Languages the server reads. */
export const LANGUAGES = ['yaml', 'json', 'helm'] as const;
/** File names the server reads whatever language the editor gave them. */
export const EXTENSIONS = ['.yaml', '.yml', '.json', '.tpl'] as const;

// The server's YAML test: an apiVersion or kind key at column 0 (a flow mapping's brace or a document
// marker may stand before it), which also holds in a chart template whose {{ }} lines do not parse as YAML.
const YAML_OBJECT_KEY = /^(?:---[ \t]+)?(?:\{[ \t]*)?["']?(?:apiVersion|kind)["']?[ \t]*:/m;
// JSON indents its top-level keys, and other JSON files (tasks.json) have "kind" alone: both are needed.
const JSON_API_VERSION = /"apiVersion"\s*:/;
const JSON_KIND = /"kind"\s*:/;
// Chart templates: files under a chart's templates/ folder, including helpers that hold no object.
const CHART_TEMPLATE = /(?:^|\/)templates\/(?:.*\/)?[^/]+\.(?:ya?ml|tpl)$/i;

/** Whether the server reads a document of this language or path at all. */
export function handles(languageId: string | undefined, path: string): boolean {
  if (languageId && (LANGUAGES as readonly string[]).includes(languageId.toLowerCase())) {
    return true;
  }
  const lower = path.toLowerCase();
  return EXTENSIONS.some((e) => lower.endsWith(e));
}

/** Whether the path is a Helm chart template (under a templates/ folder). */
export function isChartTemplate(path: string): boolean {
  return CHART_TEMPLATE.test(path.replace(/\\/g, '/'));
}

/** Whether the text looks like a Kubernetes or OpenShift manifest, as the server judges it. */
export function looksLikeManifest(text: string, json: boolean): boolean {
  if (json) {
    return JSON_API_VERSION.test(text) && JSON_KIND.test(text);
  }
  return YAML_OBJECT_KEY.test(text);
}

/** Whether a document is sent to the server: a file it reads that is a manifest or a chart template. */
export function shouldSend(languageId: string | undefined, path: string, text: string): boolean {
  if (!handles(languageId, path)) {
    return false;
  }
  if (isChartTemplate(path)) {
    return true;
  }
  const json = languageId?.toLowerCase() === 'json' || path.toLowerCase().endsWith('.json');
  return looksLikeManifest(text, json);
}
