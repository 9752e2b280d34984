// The kubelet's `$(VAR)` expansion of env values, command and args, as
// k8s.io/kubernetes third_party/forked/golang/expansion (Expand, MappingFuncFor) does it, so that
// the local kubelet stand-in hands a container exactly what a real kubelet would:
//   - `$$` is an escaped `$` (one `$` out);
//   - `$(NAME)` is replaced by NAME's value when NAME is defined, else kept as `$(NAME)`;
//     NAME is everything up to the first `)`, whatever its characters;
//   - `$(` without a closing `)` is kept; `$` followed by anything else is kept with it;
//   - a trailing `$` is kept.
// It works on bytes, as Go does; the one byte after a lone `$` is copied back as Go's
// string(byte) would (as a code point), which mangles a non-ASCII character there exactly like the
// kubelet does.

/** Expands `input` with `vars` (the environment defined so far, or the container's whole environment). */
export function kubeletExpand(input: string, vars: Readonly<Record<string, string>>): string {
  const bytes = Buffer.from(input, 'utf8');
  const out: Buffer[] = [];
  let checkpoint = 0;
  for (let cursor = 0; cursor < bytes.length; cursor++) {
    if (bytes[cursor] !== 0x24 /* $ */ || cursor + 1 >= bytes.length) continue;
    out.push(bytes.subarray(checkpoint, cursor));
    const next = bytes[cursor + 1];
    let advance = 1;
    if (next === 0x24) {
      out.push(Buffer.from('$'));
    } else if (next === 0x28 /* ( */) {
      const close = bytes.indexOf(0x29 /* ) */, cursor + 2);
      if (close < 0) {
        out.push(Buffer.from('$('));
      } else {
        const name = bytes.subarray(cursor + 2, close).toString('utf8');
        out.push(Buffer.from(Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : `$(${name})`, 'utf8'));
        advance = close - cursor;
      }
    } else {
      out.push(Buffer.from(`$${String.fromCodePoint(next)}`, 'utf8'));
    }
    cursor += advance;
    checkpoint = cursor + 1;
  }
  out.push(bytes.subarray(checkpoint));
  return Buffer.concat(out).toString('utf8');
}
