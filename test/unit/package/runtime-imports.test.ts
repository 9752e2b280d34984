// The runtime is its own package and reaches the core only by package name
// (seatunnel-app/internal/*), never by a relative path into lib/.

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
