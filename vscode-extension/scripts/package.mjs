// Packages target/hooklens-<version>.vsix with the server jar that Maven built (mvn package) inside.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const jar = join(here, '..', 'language-server', 'target', 'hooklens.jar');
if (!existsSync(jar)) {
  console.error(`package: ${jar} is missing; build it first with: mvn -B -DskipTests package`);
  process.exit(2);
}
mkdirSync(join(here, 'server'), { recursive: true });
copyFileSync(jar, join(here, 'server', 'hooklens.jar'));
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
mkdirSync(join(here, 'target'), { recursive: true });
const vsix = join(here, 'target', `hooklens-${version}.vsix`);
// Offline and non-interactive: no dependency scan (the bundle holds them), no license prompt, and the
// README's relative image links stay relative (the screenshots ship in the package).
execFileSync(join(here, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--skip-license',
  '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], { cwd: here, stdio: 'inherit' });
console.log(vsix);
