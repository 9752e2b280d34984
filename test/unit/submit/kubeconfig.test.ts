// Static kubeconfig credentials are read without client-node; anything dynamic is handed to it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readKubeconfig, staticHeaders } from '../../../lib/submit/connection/kubeconfig';

const dirs: string[] = [];
const dir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'st-kc-unit-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const b64 = (s: string) => Buffer.from(s).toString('base64');

function config(cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'ctx',
    clusters: [
      { name: 'other', cluster: { server: 'https://wrong' } },
      { name: 'k', cluster: { server: 'https://10.0.0.1:6443', ...cluster } },
    ],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'k', user: 'u', namespace: 'ignored' } }],
  });
}

describe('readKubeconfig', () => {
  test('data fields and the current context', () => {
    const r = readKubeconfig(
      '/x/kubeconfig',
      config(
        { 'certificate-authority-data': b64('CA'), 'tls-server-name': 'api' },
        { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') },
      ),
    );
    expect(r).toEqual({
      kind: 'static',
      connection: {
        server: 'https://10.0.0.1:6443',
        tls: { ca: Buffer.from('CA'), cert: Buffer.from('CERT'), key: Buffer.from('KEY'), servername: 'api' },
      },
    });
  });

  test('file fields are relative to the kubeconfig, token files are read per request', () => {
    const d = dir();
    fs.writeFileSync(path.join(d, 'ca.crt'), 'CA');
    fs.writeFileSync(path.join(d, 'token'), 'tok-1\n');
    const r = readKubeconfig(
      path.join(d, 'kubeconfig'),
      config({ 'certificate-authority': 'ca.crt', 'insecure-skip-tls-verify': true }, { tokenFile: 'token' }),
    );
    if (r.kind !== 'static') throw new Error('expected static');
    expect(r.connection.tls).toEqual({ ca: Buffer.from('CA'), rejectUnauthorized: false });
    expect(staticHeaders(r.connection)).toEqual({ Authorization: 'Bearer tok-1' });
    fs.writeFileSync(path.join(d, 'token'), 'tok-2');
    expect(staticHeaders(r.connection)).toEqual({ Authorization: 'Bearer tok-2' });
  });

  test('token and basic auth headers', () => {
    const t = readKubeconfig('/k', config({}, { token: 'abc' }));
    const b = readKubeconfig('/k', config({}, { username: 'a', password: 'b' }));
    if (t.kind !== 'static' || b.kind !== 'static') throw new Error('expected static');
    expect(staticHeaders(t.connection)).toEqual({ Authorization: 'Bearer abc' });
    expect(staticHeaders(b.connection)).toEqual({ Authorization: `Basic ${b64('a:b')}` });
  });

  test.each([
    [{}, { exec: { command: 'x' } }, 'an exec credential plugin'],
    [{}, { 'auth-provider': { name: 'oidc' } }, 'an auth-provider plugin'],
    [{}, { token: 't', as: 'someone' }, 'impersonation'],
    [{ 'proxy-url': 'http://proxy:3128' }, { token: 't' }, 'a proxy-url'],
  ])('dynamic credentials go to client-node: %#', (cluster, user, why) => {
    expect(readKubeconfig('/k', config(cluster, user))).toEqual({ kind: 'needs-client-node', why });
  });

  test.each([
    ['apiVersion: v1\nkind: Config\n', /no current-context/],
    ['current-context: nope\ncontexts: []\n', /current-context "nope" is not among its contexts/],
    [
      'current-context: c\ncontexts: [{name: c, context: {cluster: gone, user: u}}]\n',
      /names cluster "gone", which the kubeconfig does not define/,
    ],
    [
      'current-context: c\ncontexts: [{name: c, context: {cluster: k}}]\nclusters: [{name: k, cluster: {certificate-authority: /nonexistent/ca}}]\n',
      /has no server/,
    ],
    [
      'current-context: c\ncontexts: [{name: c, context: {cluster: k}}]\nclusters: [{name: k, cluster: {server: "https://x", certificate-authority: /nonexistent/ca}}]\n',
      /certificate-authority \/nonexistent\/ca: file not found/,
    ],
    ['{ unbalanced', /not a YAML kubeconfig/],
  ])('a broken kubeconfig says what is wrong: %#', (text, message) => {
    expect(() => readKubeconfig('/k', text)).toThrow(message);
  });
});
