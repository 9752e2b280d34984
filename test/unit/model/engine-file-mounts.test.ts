// kubernetes.configmap/secret entries that mount SeaTunnel's engine files into <seatunnel-home>/config:
// refused where the engines would never read them, with the options that do take them named.

import { loadApplication } from '../../../lib/model/load';
import type { SeaTunnelApplicationProps } from '../../../lib/model/props';
import { JOB_CONFIG, problems, spec } from '../../support/fixtures';

const owned = (key: string, path: string): Partial<SeaTunnelApplicationProps> => ({
  configMaps: { 'engine-files': { data: { [key]: 'x: 1\n' }, mounts: { [key]: path } } },
});

describe('engine files mounted into the config directory', () => {
  test.each([
    ['seatunnel.yaml', 'runtimeFiles.engine'],
    ['hazelcast.yaml', 'runtimeFiles.hazelcast'],
    ['hazelcast-master.yaml', 'runtimeFiles.hazelcast'],
    ['hazelcast-worker.yaml', 'runtimeFiles.hazelcast'],
    ['log4j2.properties', 'runtimeFiles.log4j2'],
    ['jvm_options', 'runtimeFiles.jvm-options'],
    ['jvm_master_options', 'runtimeFiles.jvm-options'],
    ['jvm_worker_options', 'runtimeFiles.jvm-options'],
  ])('an owned entry with %s is refused, naming %s and runtimeConfigMap', (file, option) => {
    const found = problems(() => spec(owned(file, `/opt/seatunnel/config/${file}`)));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^configMaps\\.engine-files\\.mounts\\."${file.replace('.', '\\.')}": `));
    expect(found[0]).toContain(`supply the file with ${option}`);
    expect(found[0]).toContain('runtimeConfigMap');
    expect(found[0]).toContain('would be ignored');
  });

  test('SeaTunnel client files are refused as never read', () => {
    for (const file of ['hazelcast-client.yaml', 'log4j2_client.properties', 'jvm_client_options']) {
      const found = problems(() => spec(owned(file, `/opt/seatunnel/config/${file}`)));
      expect(found).toEqual([expect.stringMatching(/client files, which application mode never reads/)]);
    }
  });

  test('a referenced ConfigMap and a Secret entry are held to the same rule', () => {
    const found = problems(() =>
      spec({
        configMaps: { cm: { ref: 'team-config', mounts: { 'st.yaml': '/opt/seatunnel/config/seatunnel.yaml' } } },
        secrets: { s: { ref: 'team-secret', mounts: { hz: '/opt/seatunnel/config/hazelcast.yaml' } } },
      }),
    );
    expect(found).toEqual([
      expect.stringMatching(/^configMaps\.cm\.mounts\."st\.yaml": .*runtimeFiles\.engine/),
      expect.stringMatching(/^secrets\.s\.mounts\."hz": .*runtimeFiles\.hazelcast/),
    ]);
  });

  test('the config directory follows SEATUNNEL_HOME', () => {
    const moved = { seatunnelHome: '/srv/st', ...owned('seatunnel.yaml', '/opt/seatunnel/config/seatunnel.yaml') };
    expect(spec(moved).configMaps[0].mounts).toEqual([
      { key: 'seatunnel.yaml', path: '/opt/seatunnel/config/seatunnel.yaml' },
    ]);
    expect(problems(() => spec({ ...moved, ...owned('seatunnel.yaml', '/srv/st/config/seatunnel.yaml') }))).toEqual([
      expect.stringMatching(/would be ignored/),
    ]);
  });

  test('other files in config/, engine files elsewhere and in subdirectories are left alone', () => {
    for (const path of [
      '/opt/seatunnel/config/plugin_config',
      '/opt/seatunnel/config/seatunnel-env.sh',
      '/opt/seatunnel/config/jobs/seatunnel.yaml',
      '/etc/team/seatunnel.yaml',
    ])
      expect(() => spec(owned('seatunnel.yaml', path))).not.toThrow();
  });

  test('a disabled runtime file is the image’s own, read from config/: mounting over it is allowed', () => {
    for (const [file, name] of [
      ['seatunnel.yaml', 'engine'],
      ['hazelcast-master.yaml', 'hazelcast'],
      ['log4j2.properties', 'log4j2'],
    ] as const) {
      const s = spec({ ...owned(file, `/opt/seatunnel/config/${file}`), runtimeFiles: { [name]: { enabled: false } } });
      expect(s.configMaps[0].mounts[0].path).toBe(`/opt/seatunnel/config/${file}`);
    }
    // The JVM is started directly: a JVM options file in config/ is not read even then.
    expect(
      problems(() =>
        spec({
          ...owned('jvm_options', '/opt/seatunnel/config/jvm_options'),
          runtimeFiles: { jvmOptions: { enabled: false } },
        }),
      ),
    ).toEqual([expect.stringMatching(/would be ignored/)]);
  });

  test('with kubernetes.config-map the directory is the ConfigMap’s, and the existing rule speaks', () => {
    const found = problems(() =>
      spec({ runtimeConfigMap: 'team-config', ...owned('seatunnel.yaml', '/opt/seatunnel/config/seatunnel.yaml') }),
    );
    expect(found).toEqual([expect.stringMatching(/would hide|lies inside .*kubernetes\.config-map/)]);
  });

  test('from a deployment file the message names the deployment keys', () => {
    const found = problems(() =>
      loadApplication({
        deploymentFile: 'deploy.conf',
        jobConfig: JOB_CONFIG,
        deploymentText: `kubernetes.image = "apache/seatunnel:2.3.12"
kubernetes.configmap.engine-files {
  data { "seatunnel.yaml" = "seatunnel: {}" }
  mounts { "seatunnel.yaml" = /opt/seatunnel/config/seatunnel.yaml }
}`,
      }),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^kubernetes\.configmap\.engine-files\.mounts\."seatunnel\.yaml": .*kubernetes\.runtime-files\.engine .*kubernetes\.config-map/,
      ),
    ]);
  });
});
