import { HoconError, type HoconValue, formatHoconPath, parseHocon, parseHoconPath } from '../../../lib/hocon';

const base = `
application {
  name = orders
  image = "apache/seatunnel:2.3.8"
}
kubernetes {
  namespace = data
  labels { team = etl }
  replicas = 1
}
job-id = \${application.name}-\${kubernetes.namespace}
`;

describe('overrides', () => {
  const doc = parseHocon(base, { filename: 'deploy.conf' });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the resolved document, walked down each case's own path
  const cases: [name: string, path: string, value: HoconValue, check: (v: Record<string, any>) => void][] = [
    ['replaces a string', 'kubernetes.namespace', 'prod', (v) => expect(v.kubernetes.namespace).toBe('prod')],
    ['is applied before substitutions', 'kubernetes.namespace', 'prod', (v) => expect(v['job-id']).toBe('orders-prod')],
    [
      'keeps strings literal (no HOCON parsing)',
      'application.name',
      '${x} [1]',
      (v) => expect(v.application.name).toBe('${x} [1]'),
    ],
    ['sets a number', 'kubernetes.replicas', 3, (v) => expect(v.kubernetes.replicas).toBe(3)],
    ['sets a bigint', 'job.id', 917381145928572929n, (v) => expect(v.job.id).toBe(917381145928572929n)],
    ['sets a boolean', 'kubernetes.debug', true, (v) => expect(v.kubernetes.debug).toBe(true)],
    ['sets null', 'kubernetes.labels', null, (v) => expect(v.kubernetes.labels).toBeNull()],
    ['sets an array', 'kubernetes.args', ['-v', 2], (v) => expect(v.kubernetes.args).toEqual(['-v', 2])],
    [
      'merges an object',
      'kubernetes.labels',
      { tier: 'batch' },
      (v) => expect(v.kubernetes.labels).toEqual({ team: 'etl', tier: 'batch' }),
    ],
    [
      'object replaces a non-object',
      'kubernetes.replicas',
      { min: 1 },
      (v) => expect(v.kubernetes.replicas).toEqual({ min: 1 }),
    ],
    ['creates missing parents', 'a.b.c', 1, (v) => expect(v.a).toEqual({ b: { c: 1 } })],
    [
      'quoted segment',
      'kubernetes.labels."app.kubernetes.io/name"',
      'orders',
      (v) => expect(v.kubernetes.labels['app.kubernetes.io/name']).toBe('orders'),
    ],
    ['top-level key', 'job-id', 'fixed', (v) => expect(v['job-id']).toBe('fixed')],
  ];

  it.each(cases)('%s', (_name, path, value, check) => {
    check(doc.withOverride(path, value).resolve());
  });

  it('reports a type clash caused by an override where the value is used', () => {
    expect(() => doc.withOverride('application.name', { first: 'a' }).resolve()).toThrow(
      'deploy.conf:11:29: cannot concatenate an object (from ${application.name}) with a string',
    );
  });

  it('does not change the original document', () => {
    doc.withOverride('kubernetes.namespace', 'prod');
    expect(doc.resolve()).toMatchObject({ kubernetes: { namespace: 'data' }, 'job-id': 'orders-data' });
  });

  it('applies several overrides in order', () => {
    const value = doc
      .withOverrides({ 'kubernetes.namespace': 'a', 'kubernetes.replicas': 2 })
      .withOverrides([['kubernetes.namespace', 'b']])
      .resolve();
    expect(value.kubernetes).toMatchObject({ namespace: 'b', replicas: 2 });
  });

  it('an override hides a substitution that cannot be resolved', () => {
    const d = parseHocon('password = ${DB_PASSWORD}');
    expect(() => d.resolve()).toThrow(HoconError);
    expect(d.withOverride('password', 'secret').resolve()).toEqual({ password: 'secret' });
  });

  it('self-referential fields see the override as the earlier value', () => {
    expect(parseHocon('path = ${path} [b]').withOverride('path', ['a']).resolve()).toEqual({ path: ['a'] });
    const appended = parseHocon('path = [a]').withOverride('extra', 1);
    expect(appended.resolve()).toEqual({ path: ['a'], extra: 1 });
  });

  it.each([
    ['empty', '', 'empty path'],
    ['double dot', 'a..b', "invalid path 'a..b'"],
    ['trailing dot', 'a.', "invalid path 'a.'"],
    ['substitution', '${a}', 'unexpected substitution ${a}'],
    ['brace', 'a{', "unexpected '{'"],
  ])('rejects an invalid path: %s', (_name, path, message) => {
    expect(() => doc.withOverride(path, 1)).toThrow(HoconError);
    expect(() => doc.withOverride(path, 1)).toThrow(message);
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['undefined', undefined as unknown as HoconValue],
    ['a Date', new Date() as unknown as HoconValue],
    ['a function', (() => 1) as unknown as HoconValue],
  ])('rejects %s as a value', (_name, value) => {
    expect(() => doc.withOverride('a', value)).toThrow(TypeError);
  });
});

describe('paths', () => {
  it.each([
    ['a', ['a']],
    ['a.b.c', ['a', 'b', 'c']],
    ['a."b.c".d', ['a', 'b.c', 'd']],
    ['"".a', ['', 'a']],
    [' a.b ', ['a', 'b']],
    ['a b.c', ['a b', 'c']],
    ['kubernetes.service-account', ['kubernetes', 'service-account']],
    ['10.0foo', ['10', '0foo']],
    ['true.null', ['true', 'null']],
  ])('parseHoconPath(%j)', (path, segments) => {
    expect(parseHoconPath(path)).toEqual(segments);
  });

  it.each([
    [['a', 'b'], 'a.b'],
    [['a', 'b.c'], 'a."b.c"'],
    [['', 'x y', 'k8s/name'], '"".' + '"x y".k8s/name'],
    [['a"b'], '"a\\"b"'],
  ])('formatHoconPath(%j)', (segments, text) => {
    expect(formatHoconPath(segments)).toBe(text);
    expect(parseHoconPath(text)).toEqual(segments);
  });
});
