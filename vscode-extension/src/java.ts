// Finds the Java runtime that starts the server: the hooklens.java.home setting, then JAVA_HOME, then
// the PATH, as vscode-java resolves its runtime, and last the runtime a platform-specific package bundles;
// no lint logic lives in the extension.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export const MIN_JAVA = 17;

export type JavaSource = 'hooklens.java.home' | 'JAVA_HOME' | 'PATH' | 'bundled';

export interface JavaRuntime {
  /** The java executable. */
  java: string;
  /** The JDK or JRE folder (bin/java's grandparent, symbolic links resolved). */
  home: string;
  major: number;
  source: JavaSource;
}

/** No usable runtime; the message says what was tried and what to do. */
export class JavaNotFoundError extends Error {
  constructor(readonly tried: string[]) {
    super(
      `Hooklens needs Java ${MIN_JAVA} or newer to run its language server, and found none` +
        (tried.length ? ` (${tried.join('; ')})` : '') +
        '. Install a JDK (e.g. openjdk-17-jdk-headless) or set "hooklens.java.home" to a Java 17+ folder.',
    );
    this.name = 'JavaNotFoundError';
  }
}

const EXE = process.platform === 'win32' ? 'java.exe' : 'java';

/**
 * Resolves the runtime. An explicit setting that does not work is an error of its own rather than a
 * reason to fall back silently to another Java: the user chose it. `bundled` is the folder of the runtime
 * a platform-specific package carries (absent from the platform-neutral one): the user's own Java 17+ wins
 * over it, since it gets their updates and settings.
 */
export async function findJava(setting: string | undefined, env: NodeJS.ProcessEnv, bundled?: string): Promise<JavaRuntime> {
  const tried: string[] = [];
  if (setting && setting.trim()) {
    const found = await inHome(setting.trim(), 'hooklens.java.home', tried);
    if (found) {
      return found;
    }
    throw new JavaNotFoundError(tried);
  }
  if (env.JAVA_HOME && env.JAVA_HOME.trim()) {
    const found = await inHome(env.JAVA_HOME.trim(), 'JAVA_HOME', tried);
    if (found) {
      return found;
    }
  }
  const onPath = await whichJava(env.PATH ?? '');
  if (onPath) {
    const real = await fs.realpath(onPath);
    const found = await check(real, path.dirname(path.dirname(real)), 'PATH', tried);
    if (found) {
      return found;
    }
  } else {
    tried.push('no java on PATH');
  }
  if (bundled && (await isExecutable(path.join(bundled, 'bin', EXE)))) {
    const found = await inHome(bundled, 'bundled', tried);
    if (found) {
      return found;
    }
  }
  throw new JavaNotFoundError(tried);
}

async function inHome(home: string, source: JavaSource, tried: string[]): Promise<JavaRuntime | undefined> {
  const java = path.join(home, 'bin', EXE);
  if (!(await isExecutable(java))) {
    tried.push(`${source} ${home} has no bin/${EXE}`);
    return undefined;
  }
  return check(java, home, source, tried);
}

async function check(java: string, home: string, source: JavaSource, tried: string[]): Promise<JavaRuntime | undefined> {
  const major = await javaMajor(java, home);
  if (major === undefined) {
    tried.push(`${source} ${java} does not say its version`);
    return undefined;
  }
  if (major < MIN_JAVA) {
    tried.push(`${source} ${java} is Java ${major}`);
    return undefined;
  }
  return { java, home, major, source };
}

/** The major version: the JDK's release file when it has one (no JVM start), else `java -version`. */
export async function javaMajor(java: string, home: string): Promise<number | undefined> {
  try {
    const release = await fs.readFile(path.join(home, 'release'), 'utf8');
    const m = /^JAVA_VERSION="([^"]+)"/m.exec(release);
    if (m) {
      return parseMajor(m[1]);
    }
  } catch {
    // No release file: ask the runtime itself.
  }
  const out = await new Promise<string | undefined>((resolve) => {
    execFile(java, ['-version'], { timeout: 10_000 }, (error, stdout, stderr) =>
      resolve(error ? undefined : `${stderr}\n${stdout}`),
    );
  });
  const m = out === undefined ? null : /version "([^"]+)"/.exec(out);
  return m ? parseMajor(m[1]) : undefined;
}

/** `17.0.2` → 17, `1.8.0_292` → 8, `21` → 21, `25-ea` → 25. */
export function parseMajor(version: string): number | undefined {
  const parts = version.split(/[.+_-]/);
  const first = Number.parseInt(parts[0], 10);
  if (Number.isNaN(first)) {
    return undefined;
  }
  return first === 1 && parts.length > 1 ? Number.parseInt(parts[1], 10) : first;
}

async function whichJava(pathVar: string): Promise<string | undefined> {
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir && (await isExecutable(path.join(dir, EXE)))) {
      return path.join(dir, EXE);
    }
  }
  return undefined;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) {
      return false;
    }
    await fs.access(file, 1 /* X_OK */);
    return true;
  } catch {
    return false;
  }
}

/**
 * The server's command line, with the flags of the repository's `hooklens` launcher in `lsp` mode: serial GC
 * and a bounded young generation keep the long-running server's memory near its live data, and a 4 MB
 * stack suits the YAML reader's recursion.
 */
export function serverCommand(runtime: JavaRuntime, jar: string, vmargs: string[] = []): { command: string; args: string[] } {
  return {
    command: runtime.java,
    args: ['-XX:+UseSerialGC', '-Xss4m', '-Xmn32m', '-Xlog:cds=off', '-Xlog:cds+dynamic=off', ...vmargs, '-jar', jar, 'lsp'],
  };
}

/** The command as a shell line, for the output channel. */
export function commandLine(command: string, args: string[]): string {
  return [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
