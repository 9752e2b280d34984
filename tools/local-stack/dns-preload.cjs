// Preloaded into the local kubelet's Node.js containers (NODE_OPTIONS=--require, set by
// cluster-dns.ts resolverEnv): dns.lookup, which net, http and friends use to turn a host name into
// an address, answers from the cluster DNS stand-in's hosts file (named by
// SEATUNNEL_LOCAL_HOSTS_FILE) before the system resolver, as "hosts: files dns" in nsswitch.conf
// would. The file is read on every lookup, so a rewrite (an atomic rename) is seen at once.
// Not covered: dns.resolve*() and dns.Resolver (they speak DNS to a server, which the stand-in does
// not run), and modules that captured dns.lookup before this ran.
'use strict';
const dns = require('node:dns');
const fs = require('node:fs');

const file = process.env.SEATUNNEL_LOCAL_HOSTS_FILE;

/** name (lower case) → [{ address, family }] from the hosts file, or an empty map if unreadable. */
function table() {
  const out = new Map();
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  for (const raw of text.split('\n')) {
    const [address, ...names] = raw.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || names.length === 0) continue;
    const family = address.includes(':') ? 6 : 4;
    for (const name of names) {
      const key = name.toLowerCase();
      const list = out.get(key) ?? [];
      if (!list.some((a) => a.address === address)) list.push({ address, family });
      out.set(key, list);
    }
  }
  return out;
}

function familyOf(options) {
  const f = typeof options === 'number' ? options : options?.family;
  return f === 'IPv4' ? 4 : f === 'IPv6' ? 6 : Number(f) || 0;
}

if (file) {
  const systemLookup = dns.lookup;
  function lookup(hostname, options, callback) {
    if (typeof options === 'function') {
      callback = options;
      options = {};
    }
    const known = typeof hostname === 'string' ? table().get(hostname.toLowerCase().replace(/\.$/, '')) : undefined;
    if (!known) return systemLookup.call(dns, hostname, options, callback);
    const family = familyOf(options);
    const matching = known.filter((a) => family === 0 || a.family === family);
    process.nextTick(() => {
      if (matching.length === 0) {
        const err = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        Object.assign(err, { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname });
        callback(err);
      } else if (options?.all)
        callback(
          null,
          matching.map((a) => ({ address: a.address, family: a.family })),
        );
      else callback(null, matching[0].address, matching[0].family);
    });
    return {};
  }
  dns.lookup = lookup;
  dns.promises.lookup = (hostname, options) =>
    new Promise((resolve, reject) =>
      lookup(hostname, options ?? {}, (err, address, family) => {
        if (err) reject(err);
        else resolve(options?.all ? address : { address, family });
      }),
    );
}
