import { parseHocon, stringifyJson } from '../../../lib/hocon';

describe('SeaTunnel deployment file', () => {
  const deploy = `
# deploy.conf: how to run the job on Kubernetes
application {
  name = orders-sync
  job-config = jobs/orders.conf
  image = "apache/seatunnel:2.3.8"
  jvm-options = [-Xms1g, -Xmx2g]
}
application.job-id = 917381145928572929

kubernetes {
  namespace = data-\${environment}
  service-account = \${application.name}
  labels {
    "app.kubernetes.io/name" = \${application.name}
    team = etl
  }
  resources.memory = 4Gi
}
kubernetes.replicas = 2
kubernetes.image-pull-secrets += regcred
kubernetes.node-selector."kubernetes.io/os" = linux

environment = dev
environment = \${?DEPLOY_ENV}
`;

  const doc = parseHocon(deploy, { filename: 'deploy.conf' });

  it('mixes blocks and dotted keys', () => {
    expect(doc.resolve()).toEqual({
      application: {
        name: 'orders-sync',
        'job-config': 'jobs/orders.conf',
        image: 'apache/seatunnel:2.3.8',
        'jvm-options': ['-Xms1g', '-Xmx2g'],
        'job-id': 917381145928572929n,
      },
      kubernetes: {
        namespace: 'data-dev',
        'service-account': 'orders-sync',
        labels: { 'app.kubernetes.io/name': 'orders-sync', team: 'etl' },
        resources: { memory: '4Gi' },
        replicas: 2,
        'image-pull-secrets': ['regcred'],
        'node-selector': { 'kubernetes.io/os': 'linux' },
      },
      environment: 'dev',
    });
  });

  it('takes the environment from the process environment when set', () => {
    expect(doc.resolve({ env: { DEPLOY_ENV: 'prod' } }).kubernetes).toMatchObject({ namespace: 'data-prod' });
  });

  it('applies -D overrides before substitutions are resolved', () => {
    const value = doc
      .withOverrides({
        'application.name': 'orders-v2',
        environment: 'staging',
        'kubernetes.labels': { tier: 'batch' },
      })
      .resolve({ env: { DEPLOY_ENV: 'prod' } });
    expect(value.kubernetes).toMatchObject({
      namespace: 'data-staging', // the override is the last definition, so it beats ${?DEPLOY_ENV}
      'service-account': 'orders-v2',
      labels: { 'app.kubernetes.io/name': 'orders-v2', team: 'etl', tier: 'batch' },
    });
  });
});

describe('SeaTunnel job config', () => {
  const expected = {
    env: { job: { mode: 'BATCH' }, parallelism: 2 },
    source: [
      {
        plugin_name: 'FakeSource',
        plugin_output: 'fake',
        row: { num: 16 },
        schema: { fields: { name: 'string', age: 'int' } },
      },
    ],
    sink: [{ plugin_name: 'Console', plugin_input: ['fake'] }],
  };

  it('parses the list form', () => {
    const job = `
env {
  job.mode = BATCH
  parallelism = 2
}
source = [
  {
    plugin_name = FakeSource
    plugin_output = fake
    row.num = 16
    schema = {
      fields {
        name = string
        age = int
      }
    }
  }
]
sink = [ { plugin_name = Console, plugin_input = [fake] } ]
`;
    expect(parseHocon(job).resolve()).toEqual(expected);
  });

  it('parses the block form (plugin name as the key)', () => {
    const job = `
env {
  job.mode = "BATCH"
  parallelism = 2
}

source {
  FakeSource {
    plugin_output = "fake"
    row.num = 16
    schema = {
      fields {
        name = "string"
        age = "int"
      }
    }
  }
}

transform {
}

sink {
  Console {
    plugin_input = ["fake"]
  }
}
`;
    expect(parseHocon(job).resolve()).toEqual({
      env: expected.env,
      source: { FakeSource: { plugin_output: 'fake', row: { num: 16 }, schema: expected.source[0].schema } },
      transform: {},
      sink: { Console: { plugin_input: ['fake'] } },
    });
  });

  it('turns a job with env placeholders into JSON for the REST API', () => {
    const job = `
env {
  job.mode = STREAMING
  checkpoint.interval = 10000
  job.name = \${JOB_NAME}
}
source {
  Jdbc {
    url = "jdbc:mysql://"\${DB_HOST}":3306/shop?useSSL=false"
    driver = com.mysql.cj.jdbc.Driver
    user = \${DB_USER}
    password = \${?DB_PASSWORD}
    query = """
      SELECT id, total
      FROM orders
      WHERE total > 1.50
    """
    split.size = 8096
    partition_lower_bound = 917381145928572929
    plugin_output = orders
  }
}
sink {
  Console { plugin_input = [orders] }
}
`;
    const report = parseHocon(job, { filename: 'orders.conf' }).resolveWithReport({
      env: { DB_HOST: 'mysql.data.svc', DB_USER: 'etl' },
      allowUnresolved: true,
    });
    expect(report.unresolved.map((u) => `${u.text} at ${u.filename}:${u.line}:${u.column}`)).toEqual([
      '${JOB_NAME} at orders.conf:5:14',
      '${?DB_PASSWORD} at orders.conf:12:16',
    ]);
    expect(report.envUsed).toEqual(['DB_HOST', 'DB_USER']);
    const json = JSON.parse(report.toJson(2));
    expect(json.env.job.name).toBe('${JOB_NAME}');
    expect(json.source.Jdbc).toEqual({
      url: 'jdbc:mysql://mysql.data.svc:3306/shop?useSSL=false',
      driver: 'com.mysql.cj.jdbc.Driver',
      user: 'etl',
      query: '\n      SELECT id, total\n      FROM orders\n      WHERE total > 1.50\n    ',
      split: { size: 8096 },
      partition_lower_bound: expect.any(Number),
      plugin_output: 'orders',
    });
    expect(report.toJson()).toContain('"partition_lower_bound":917381145928572929');
    expect(stringifyJson(report.value)).toBe(report.toJson());
  });
});
