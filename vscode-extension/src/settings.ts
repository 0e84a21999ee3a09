// Maps the editor's hooklens.* settings to the server's settings section (io.hooklens.lsp.Settings):
// {targets: {kubernetes, helm, deployer}, rules, debounceMs, helm: {values, set, releaseName, namespace}}. Settings left empty are left out, so the
// nearest .hooklens.yaml decides them, as it does for `hooklens lint`. Client-only settings (java.home,
// trace) never reach the server, which would report them as unknown.

export interface ServerSettings {
  targets?: { kubernetes?: string; helm?: string; deployer?: string };
  rules?: Record<string, string>;
  debounceMs?: number;
  helm?: { values?: string[]; set?: Record<string, string>; releaseName?: string; namespace?: string };
}

/** What a vscode.WorkspaceConfiguration offers; a plain object in tests. */
export interface SettingsSource {
  get<T>(key: string): T | undefined;
}

export function serverSettings(config: SettingsSource): ServerSettings {
  const out: ServerSettings = {};
  const targets: NonNullable<ServerSettings['targets']> = {};
  const kubernetes = text(config.get('targets.kubernetes'));
  if (kubernetes) {
    targets.kubernetes = kubernetes;
  }
  const helm = text(config.get('targets.helm'));
  if (helm) {
    targets.helm = helm;
  }
  const deployer = text(config.get('targets.deployer'));
  if (deployer) {
    targets.deployer = deployer;
  }
  if (Object.keys(targets).length) {
    out.targets = targets;
  }
  const rules = config.get<Record<string, unknown>>('rules');
  if (rules && typeof rules === 'object' && !Array.isArray(rules)) {
    const copy: Record<string, string> = {};
    for (const [id, severity] of Object.entries(rules)) {
      // The server reports a bad severity in its log; only an empty one means "not set".
      const s = severity === false ? 'off' : text(severity);
      if (id.trim() && s) {
        copy[id.trim()] = s;
      }
    }
    if (Object.keys(copy).length) {
      out.rules = copy;
    }
  }
  const debounce = config.get<unknown>('debounceMs');
  if (typeof debounce === 'number' && Number.isFinite(debounce)) {
    out.debounceMs = debounce;
  }
  const charts: NonNullable<ServerSettings['helm']> = {};
  const values = config.get<unknown>('helm.values');
  if (Array.isArray(values)) {
    const files = values.map(text).filter((v): v is string => v !== undefined);
    if (files.length) {
      charts.values = files;
    }
  }
  const set = config.get<unknown>('helm.set');
  if (set && typeof set === 'object' && !Array.isArray(set)) {
    const copy: Record<string, string> = {};
    for (const [key, value] of Object.entries(set)) {
      const v = typeof value === 'boolean' ? String(value) : text(value);
      if (key.trim() && v !== undefined) {
        copy[key.trim()] = v;
      }
    }
    if (Object.keys(copy).length) {
      charts.set = copy;
    }
  }
  // The server checks the names as Helm does and says why it ignores one.
  for (const key of ['releaseName', 'namespace'] as const) {
    const name = text(config.get(`helm.${key}`));
    if (name) {
      charts[key] = name;
    }
  }
  if (Object.keys(charts).length) {
    out.helm = charts;
  }
  return out;
}

/** The initializationOptions and didChangeConfiguration payload: the section under its name. */
export function settingsPayload(config: SettingsSource): { hooklens: ServerSettings } {
  return { hooklens: serverSettings(config) };
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return String(value);
  }
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
