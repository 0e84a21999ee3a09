// Packages target/hooklens-<version>.vsix with the server jar that Maven built (mvn package) inside: the
// platform-neutral package, which starts the server with the user's Java. With --target TARGET --runtime DIR
// (scripts/package-platform.sh passes them) it packages target/hooklens-TARGET-<version>.vsix for that VS Code
// platform instead, with the Java runtime in DIR as server/runtime.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({ options: { target: { type: 'string' }, runtime: { type: 'string' } } });
if (Boolean(options.target) !== Boolean(options.runtime)) {
  console.error('package: --target and --runtime go together');
  process.exit(2);
}
const jar = join(here, '..', 'language-server', 'target', 'hooklens.jar');
if (!existsSync(jar)) {
  console.error(`package: ${jar} is missing; build it first with: mvn -B -DskipTests package`);
  process.exit(2);
}
mkdirSync(join(here, 'server'), { recursive: true });
copyFileSync(jar, join(here, 'server', 'hooklens.jar'));
// A runtime left by an earlier platform build must not reach the platform-neutral package.
rmSync(join(here, 'server', 'runtime'), { recursive: true, force: true });
if (options.runtime) {
  cpSync(options.runtime, join(here, 'server', 'runtime'), { recursive: true, verbatimSymlinks: true });
}
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
mkdirSync(join(here, 'target'), { recursive: true });
const vsix = join(here, 'target', `hooklens-${options.target ? `${options.target}-` : ''}${version}.vsix`);
// Offline and non-interactive: no dependency scan (the bundle holds them), no license prompt, and the
// README's relative image links stay relative (the screenshots ship in the package).
execFileSync(join(here, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--skip-license',
  '--allow-missing-repository', '--no-rewrite-relative-links', ...(options.target ? ['--target', options.target] : []),
  '-o', vsix], { cwd: here, stdio: 'inherit' });
console.log(vsix);
