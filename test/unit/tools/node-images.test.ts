// The pure parts of tools/local-stack/node-images.ts: reading build.sh --paths and `ctr images ls`,
// and matching the name containerd stored against the ref a Pod uses. (The imports themselves are
// proven against a real containerd by tools/images/smoke.sh.)

import { parseCtrImages, parseImagePaths, sameImageRef } from '../../../tools/local-stack/node-images';

const D1 = `sha256:${'a'.repeat(64)}`;
const D2 = `sha256:${'b'.repeat(64)}`;

describe('parseImagePaths', () => {
  it('reads built and missing images, ignoring other lines', () => {
    const out = [
      'pause ref=localhost/seatunnel-app/pause:22a78448ab49 archive=/c/images/pause-22a78448ab49/image.tar',
      'seatunnel ref=localhost/seatunnel-app/seatunnel:2.3.8 archive=(missing)',
      '[images 20:00:00] a progress line',
      'runtime ref=seatunnel-app-runtime:0.1.0 archive=/c/images/runtime-0.1.0-x/image.tar',
      'prometheus ref=localhost/seatunnel-app/prometheus:2.42.0 archive=(missing)',
      'other ref=x:1 archive=/x.tar',
    ].join('\n');
    expect(parseImagePaths(out)).toEqual([
      {
        name: 'pause',
        ref: 'localhost/seatunnel-app/pause:22a78448ab49',
        archive: '/c/images/pause-22a78448ab49/image.tar',
      },
      { name: 'seatunnel', ref: 'localhost/seatunnel-app/seatunnel:2.3.8' },
      { name: 'runtime', ref: 'seatunnel-app-runtime:0.1.0', archive: '/c/images/runtime-0.1.0-x/image.tar' },
      { name: 'prometheus', ref: 'localhost/seatunnel-app/prometheus:2.42.0' },
    ]);
  });
});

describe('sameImageRef', () => {
  it('matches a ref with a domain only exactly', () => {
    expect(sameImageRef('localhost/seatunnel-app/pause:1', 'localhost/seatunnel-app/pause:1')).toBe(true);
    expect(sameImageRef('localhost/seatunnel-app/pause:2', 'localhost/seatunnel-app/pause:1')).toBe(false);
    expect(sameImageRef('other.example/localhost/seatunnel-app/pause:1', 'localhost/seatunnel-app/pause:1')).toBe(
      false,
    );
  });

  it('matches a short ref to its normalized form (a domain, and library/ for one component)', () => {
    expect(sameImageRef('registry.example/library/seatunnel-app-runtime:0.1.0', 'seatunnel-app-runtime:0.1.0')).toBe(
      true,
    );
    expect(sameImageRef('registry.example/team/app:1', 'team/app:1')).toBe(true);
    expect(sameImageRef('registry.example/library/seatunnel-app-runtime:0.2.0', 'seatunnel-app-runtime:0.1.0')).toBe(
      false,
    );
    expect(sameImageRef('registry.example/x/library/seatunnel-app-runtime:0.1.0', 'seatunnel-app-runtime:0.1.0')).toBe(
      false,
    );
    expect(sameImageRef('registry.example/library/my-seatunnel-app-runtime:0.1.0', 'seatunnel-app-runtime:0.1.0')).toBe(
      false,
    );
  });
});

describe('parseCtrImages', () => {
  it('reads name and manifest digest of each row under the header', () => {
    const out = [
      'REF                                   TYPE                                                 DIGEST SIZE    PLATFORMS   LABELS',
      `localhost/seatunnel-app/pause:1      application/vnd.docker.distribution.manifest.v2+json ${D1} 668.3 KiB linux/amd64 -`,
      `registry.example/library/rt:0.1.0    application/vnd.docker.distribution.manifest.v2+json ${D2} 40.1 MiB  linux/amd64 -`,
      '',
    ].join('\n');
    expect(parseCtrImages(out)).toEqual([
      { ref: 'localhost/seatunnel-app/pause:1', digest: D1 },
      { ref: 'registry.example/library/rt:0.1.0', digest: D2 },
    ]);
  });
});
