// JVM options and Hazelcast files cannot reopen what application mode closes (issue 27, item 10):
// Hazelcast takes any configuration from hz.* system properties, and a few hazelcast.* ones change
// the configuration file, member discovery or the REST endpoint; a Hazelcast file may not import
// another. The ConfigMap's files: test/unit/plan/runtime-config-map.test.ts.
import { jvmOptions } from '../../../lib/engine/files';
import { problems, spec } from '../../support/fixtures';

describe('JVM flags and Hazelcast files', () => {
  test.each([
    ['-Dhz.network.join.multicast.enabled=true', /hz\.\* system properties override the Hazelcast configuration/],
    ['-Dhz.network.rest-api.enabled=true', /hz\.\* system properties/],
    ['-Dhazelcast.config=/tmp/other.yaml', /changes the Hazelcast configuration file/],
    ['-Dhazelcast.discovery.enabled=true', /member discovery/],
    ['-Dhazelcast.rest.enabled=true', /REST endpoint/],
  ])('runtime-files.jvm-options %s is refused', (flag, why) => {
    const found = problems(() => spec({ runtimeFiles: { jvmOptions: { content: `-Dok=1\n${flag}\n` } } }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(why);
    expect(found[0]).toContain(flag);
  });

  test('ordinary JVM flags pass', () => {
    expect(() =>
      spec({ runtimeFiles: { jvmOptions: { content: '-Dfoo=bar\n-XX:+UseZGC\n-Dhazelcast.logging.type=log4j2\n' } } }),
    ).not.toThrow();
  });

  test("several flags on one line are several flags, as SeaTunnel's start script reads a jvm_options file; comments are not flags", () => {
    const s = spec({
      runtimeFiles: {
        jvmOptions: { content: '# tuned\n-XX:+AlwaysPreTouch  -XX:ReservedCodeCacheSize=128m\n\n\t-Dx=1\n' },
      },
    });
    expect(jvmOptions(s, 'worker').slice(-3)).toEqual([
      '-XX:+AlwaysPreTouch',
      '-XX:ReservedCodeCacheSize=128m',
      '-Dx=1',
    ]);
    // A refused flag is found beside others on its line; a commented one is not read at all.
    const found = problems(() => spec({ runtimeFiles: { jvmOptions: { content: '-Dok=1 -Dhz.x=1\n# -Dhz.y=1\n' } } }));
    expect(found).toEqual([expect.stringContaining('-Dhz.x=1')]);
  });

  test('a Hazelcast file that imports another is refused', () => {
    const found = problems(() =>
      spec({ runtimeFiles: { hazelcast: { content: 'hazelcast:\n  import:\n    - other.yaml\n' } } }),
    );
    expect(found).toEqual([
      expect.stringMatching(/^runtimeFiles.hazelcast: an imported file could change member discovery/),
    ]);
  });
});
