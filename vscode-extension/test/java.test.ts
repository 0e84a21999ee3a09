import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findJava, JavaNotFoundError, javaMajor, parseMajor, serverCommand } from '../src/java';

const root = mkdtempSync(join(tmpdir(), 'hooklens-java-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A fake JDK: bin/java prints `version` as `java -version` does (to stderr), and optionally a release file. */
function fakeJdk(name: string, version: string, release?: string): string {
  const home = join(root, name);
  mkdirSync(join(home, 'bin'), { recursive: true });
  const java = join(home, 'bin', 'java');
  writeFileSync(java, `#!/bin/sh\necho 'openjdk version "${version}" 2024-01-16' >&2\n`);
  chmodSync(java, 0o755);
  if (release) {
    writeFileSync(join(home, 'release'), `IMPLEMENTOR="Test"\nJAVA_VERSION="${release}"\n`);
  }
  return home;
}

const jdk21 = fakeJdk('jdk21', '21.0.2');
const jdk11 = fakeJdk('jdk11', '11.0.22');
const jdk8 = fakeJdk('jdk8', '1.8.0_392');
const jdk17Release = fakeJdk('jdk17r', '9.9.9', '17.0.10');
const notAJdk = join(root, 'empty');
mkdirSync(notAJdk);

describe('findJava', () => {
  it('takes the setting first', async () => {
    const r = await findJava(jdk21, { JAVA_HOME: jdk17Release, PATH: join(jdk17Release, 'bin') });
    assert.equal(r.source, 'hooklens.java.home');
    assert.equal(r.major, 21);
    assert.equal(r.java, join(jdk21, 'bin', 'java'));
  });

  it('refuses a setting that does not work instead of falling back', async () => {
    await assert.rejects(findJava(jdk11, { JAVA_HOME: jdk21 }), (e: unknown) =>
      e instanceof JavaNotFoundError && /hooklens\.java\.home .*is Java 11/.test(e.message) && /Java 17 or newer/.test(e.message));
    await assert.rejects(findJava(notAJdk, { JAVA_HOME: jdk21 }), /has no bin\/java/);
  });

  it('then JAVA_HOME, reading the release file rather than starting the JVM', async () => {
    const r = await findJava(undefined, { JAVA_HOME: jdk17Release, PATH: join(jdk21, 'bin') });
    assert.equal(r.source, 'JAVA_HOME');
    assert.equal(r.major, 17);
  });

  it('then the PATH when JAVA_HOME is too old, resolving links to the real JDK', async () => {
    const links = join(root, 'links');
    mkdirSync(links);
    symlinkSync(join(jdk21, 'bin', 'java'), join(links, 'java'));
    const r = await findJava('  ', { JAVA_HOME: jdk8, PATH: [notAJdk, links].join(':') });
    assert.equal(r.source, 'PATH');
    assert.equal(r.home, realpathSync(jdk21));
    assert.equal(r.major, 21);
  });

  it('says everything it tried when nothing fits', async () => {
    await assert.rejects(findJava(undefined, { JAVA_HOME: jdk8, PATH: join(jdk11, 'bin') }), (e: unknown) => {
      assert.ok(e instanceof JavaNotFoundError);
      assert.deepEqual(e.tried, [`JAVA_HOME ${join(jdk8, 'bin', 'java')} is Java 8`, `PATH ${join(jdk11, 'bin', 'java')} is Java 11`]);
      assert.match(e.message, /set "hooklens\.java\.home"/);
      return true;
    });
    await assert.rejects(findJava(undefined, { PATH: notAJdk }), /no java on PATH/);
  });

  it('reports a java that does not say its version', async () => {
    const home = join(root, 'mute');
    mkdirSync(join(home, 'bin'), { recursive: true });
    writeFileSync(join(home, 'bin', 'java'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(home, 'bin', 'java'), 0o755);
    assert.equal(await javaMajor(join(home, 'bin', 'java'), home), undefined);
    await assert.rejects(findJava(home, {}), /does not say its version/);
  });
});

describe('findJava with a bundled runtime', () => {
  const bundled = fakeJdk('bundled', '17.0.12', '17.0.12');

  it("prefers the user's Java: the setting, JAVA_HOME and the PATH each win over it", async () => {
    assert.equal((await findJava(jdk21, {}, bundled)).source, 'hooklens.java.home');
    assert.equal((await findJava(undefined, { JAVA_HOME: jdk21 }, bundled)).source, 'JAVA_HOME');
    const r = await findJava(undefined, { JAVA_HOME: jdk8, PATH: join(jdk21, 'bin') }, bundled);
    assert.equal(r.source, 'PATH');
    assert.equal(r.java, join(jdk21, 'bin', 'java'));
  });

  it('takes it when no Java 17+ is found', async () => {
    const r = await findJava(undefined, { JAVA_HOME: jdk8, PATH: join(jdk11, 'bin') }, bundled);
    assert.equal(r.source, 'bundled');
    assert.equal(r.java, join(bundled, 'bin', 'java'));
    assert.equal(r.major, 17);
    assert.equal((await findJava(undefined, { PATH: notAJdk }, bundled)).source, 'bundled');
  });

  it('never replaces a setting that does not work', async () => {
    await assert.rejects(findJava(jdk11, {}, bundled), /hooklens\.java\.home .*is Java 11/);
  });

  it('is not there in the platform-neutral package, which then says what it tried', async () => {
    await assert.rejects(findJava(undefined, { PATH: join(jdk11, 'bin') }, join(root, 'no-runtime')), (e: unknown) => {
      assert.ok(e instanceof JavaNotFoundError);
      assert.deepEqual(e.tried, [`PATH ${join(jdk11, 'bin', 'java')} is Java 11`]);
      return true;
    });
  });
});

describe('parseMajor', () => {
  it('reads old and new version strings', () => {
    assert.equal(parseMajor('17.0.2'), 17);
    assert.equal(parseMajor('1.8.0_292'), 8);
    assert.equal(parseMajor('21'), 21);
    assert.equal(parseMajor('25-ea'), 25);
    assert.equal(parseMajor('abc'), undefined);
  });
});

describe('serverCommand', () => {
  it('starts the jar in lsp mode with the launcher flags and the user vmargs before -jar', () => {
    const { command, args } = serverCommand({ java: '/j/bin/java', home: '/j', major: 17, source: 'PATH' }, '/ext/server/hooklens.jar', ['-Xmx512m']);
    assert.equal(command, '/j/bin/java');
    assert.deepEqual(args, ['-XX:+UseSerialGC', '-Xss4m', '-Xmn32m', '-Xlog:cds=off', '-Xlog:cds+dynamic=off', '-Xmx512m', '-jar', '/ext/server/hooklens.jar', 'lsp']);
  });
});
