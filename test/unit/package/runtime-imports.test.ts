// The runtime is its own package and reaches the core only by package name
// (seatunnel-app/runtime-support), never by a relative path into lib/.

import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : tsFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

test('no runtime source or test imports lib/ by a relative path', () => {
  const lib = path.join(REPO, 'lib') + path.sep;
  const offenders = tsFiles(path.join(REPO, 'runtime')).flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/(?:from|import\(|require\()\s*['"](\.\.?\/[^'"]+)['"]/g)]
      .filter((m) => (path.resolve(path.dirname(file), m[1]) + path.sep).startsWith(lib))
      .map((m) => `${path.relative(REPO, file)}: ${m[1]}`),
  );
  expect(offenders).toEqual([]);
});

test("the runtime's sources reach the core through one entry, seatunnel-app/runtime-support", () => {
  const src = path.join(REPO, 'runtime', 'src');
  const others = tsFiles(src).flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/(?:from|import\(|require\()\s*['"](seatunnel-app[^'"]*)['"]/g)]
      .filter((m) => m[1] !== 'seatunnel-app/runtime-support')
      .map((m) => `${path.relative(REPO, file)}: ${m[1]}`),
  );
  expect(others).toEqual([]);
});

test('the package exports that entry and no path into lib/', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  expect(Object.keys(pkg.exports)).toContain('./runtime-support');
  expect(Object.keys(pkg.exports).filter((k) => k.includes('*'))).toEqual([]);
});
